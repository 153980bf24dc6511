# lit configuration: IR-level tests are .relay files with RUN and CHECK lines (LLVM lit + FileCheck).
import os
import lit.formats

config.name = 'byoc'
config.test_format = lit.formats.ShTest(True)
config.suffixes = ['.relay']
config.excludes = ['Inputs']
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(lit_config.params.get('build', 'build'), 'lit')
root = os.path.dirname(os.path.dirname(config.test_source_root))
byocc = os.path.join(root, lit_config.params.get('build', 'build'), 'byocc')
config.substitutions.append(('%byocc', byocc))
config.environment['PATH'] = '/usr/lib/llvm-14/bin' + os.pathsep + os.environ.get('PATH', '')
# byocc wraps human output at 100 columns; the CHECK lines match one report row per node
config.environment['COLUMNS'] = '100000'
