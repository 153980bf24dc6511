#!/usr/bin/python3
"""report_browser.py BYOCC [BUILD] -- `byocc report`'s HTML page opened in headless Chromium.

For three models (a test-built one from tests/models, always there, squeezenet_rand from the shared models,
skipped when they are absent, and a 1,008-op chain of residual blocks it builds with python3-onnx in
BUILD/report_thousand_ops) it writes BUILD/report_NAME.html with `byocc report MODEL --backend npu --backend
dsp -o ...` and checks, driving Chromium through its DevTools protocol:
  - the page sets document.body.dataset.ready = "1" and logs no console error, uncaught exception or
    error log entry, and requests nothing but itself (the page is self-contained);
  - it has the sections graph, timeline, plans, memory and kernels;
  - the number of g.node elements, the page's #node-count and their ids, devices and partitions equal
    what `byocc partition MODEL ... --emit json` (an independent source: the placement report) gives;
  - no number in the tables is broken over two lines, nor a word of a kernel's device, class or exec;
  - a mouse click at a node's centre (Input.dispatchMouseEvent, as a user's click) fills #details with
    "op: OP" for that node's op; a click on a node some backend declined shows each field the placement
    report gives it (ONNX name, device, composite, partition, kernel, reason, every decline's reason), and
    its hover title gives its op and reason;
  - the first screen's node labels are at least MIN_LABEL_PIXELS high; clicks on zoom in, zoom out and fit
    scale the view as they say; "collapse partitions" shows one box a partition in a shorter drawing, and a
    click on a box there expands the graph again;
  - a screenshot of the whole page goes to BUILD/report_NAME.png;
and, without the protocol, `chromium --dump-dom FILE#node=N` shows node N's op in #details.
A negative control first checks that the error collection catches a console.error and a thrown exception.

Prints "ok NAME" / "FAIL NAME: why" per check and "skipped ..." lines saying why something did not run:
only where Chromium cannot run at all (no binary, or it does not start), where the shared models are
absent, or where byocc has no report subcommand. Every Chromium launch has a time limit (LAUNCH_SECONDS),
runs in its own process group with a temporary home and profile, and is torn down completely (checked).

The DevTools protocol runs over --remote-debugging-pipe: Chromium reads commands from fd 3 and writes
responses and events to fd 4, each a JSON message ended by a NUL byte (as puppeteer's PipeTransport does).
Python's standard library only: no websocket client, no npm package.
"""
import base64
import fcntl
import html.parser
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

LAUNCH_SECONDS = 60
MAX_SCREENSHOT_HEIGHT = 16384  # a taller capture exceeds what Chromium's compositor draws in one texture
SECTIONS = ("graph", "timeline", "plans", "memory", "kernels")
BACKEND_ARGS = ["--backend", "npu", "--backend", "dsp"]
NO_REPORT_COMMAND = "byocc has no report subcommand yet"


class CheckFailed(Exception):
    """One check's failure: its message becomes the FAIL line."""


class ChromiumUnavailable(Exception):
    """Chromium cannot run here at all (the only reason the browser checks skip)."""


def find_chromium():
    """The Chromium binary: $CHROMIUM, else Debian's chromium (the Makefile installs it), else another name."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"]
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Chromium:
    """One headless Chromium process tree. Its home, config, cache and profile are one temporary directory
    (HOME too: Chromium's crash handler leaves the process group and keeps its database under HOME), whose
    path is in every process's command line or environment: that is how the teardown finds them all and
    nothing else."""

    def __init__(self, chromium, flags, **popen_args):
        self.home = tempfile.mkdtemp(prefix="byoc-chromium-")
        argv = [chromium, "--headless", "--user-data-dir=" + os.path.join(self.home, "profile"), "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars", "--window-size=1280,900"]
        if os.geteuid() == 0:  # Chromium refuses to run as root inside its sandbox
            argv.append("--no-sandbox")
        env = dict(os.environ, HOME=self.home, XDG_CONFIG_HOME=os.path.join(self.home, "config"),
                   XDG_CACHE_HOME=os.path.join(self.home, "cache"), BYOC_CHROMIUM_HOME=self.home)
        try:
            self.proc = subprocess.Popen(argv + flags, stdin=subprocess.DEVNULL, env=env, start_new_session=True,
                                         **popen_args)
        except OSError as e:
            shutil.rmtree(self.home, ignore_errors=True)
            raise ChromiumUnavailable("%s does not start: %s" % (chromium, e))

    def processes(self):
        """Live processes naming the launch's directory in their command line or environment."""
        found = []
        marker = self.home.encode()
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open("/proc/%s/stat" % entry, "rb") as f:
                    if f.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                        continue  # a zombie: its parent or init reaps it
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    named = marker in f.read()
                if not named:
                    with open("/proc/%s/environ" % entry, "rb") as f:
                        named = marker in f.read()
            except OSError:
                continue  # gone meanwhile, or not readable (then not started by this user)
            if named:
                found.append(int(entry))
        return found

    def finish(self, grace):
        """After grace seconds for it to exit by itself, SIGKILL to its process group (while its leader is
        not reaped the group is still this launch's) and to every process naming its directory; raises when
        some survive."""
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        try:
            for _ in range(50):
                left = self.processes()
                if not left:
                    return
                for pid in left:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                time.sleep(0.1)
            raise CheckFailed("Chromium processes %s survived SIGKILL" % left)
        finally:
            shutil.rmtree(self.home, ignore_errors=True)


class DevTools:
    """One headless Chromium driven over --remote-debugging-pipe, with a deadline for the whole launch."""

    def __init__(self, chromium):
        self.deadline = time.monotonic() + LAUNCH_SECONDS
        self.stderr = tempfile.TemporaryFile()
        self.next_id = 0
        self.events = []
        self.buffer = b""
        cmd_read, self.cmd_write = os.pipe()
        self.resp_read, resp_write = os.pipe()

        def to_fds_3_and_4():  # in the child: its command pipe on fd 3, its response pipe on fd 4
            high_cmd = fcntl.fcntl(cmd_read, fcntl.F_DUPFD, 10)
            high_resp = fcntl.fcntl(resp_write, fcntl.F_DUPFD, 10)
            os.dup2(high_cmd, 3)
            os.dup2(high_resp, 4)
        try:  # close_fds=False keeps fds 3 and 4 open in the child; Python's own fds are all close-on-exec
            self.chromium = Chromium(chromium, ["--remote-debugging-pipe", "about:blank"], stdout=self.stderr,
                                     stderr=self.stderr, preexec_fn=to_fds_3_and_4, close_fds=False)
        except ChromiumUnavailable:
            self._close_fds(cmd_read, resp_write, self.cmd_write, self.resp_read)
            self.stderr.close()
            raise
        self.proc = self.chromium.proc
        os.close(cmd_read)
        os.close(resp_write)

    def _close_fds(self, *fds):
        for fd in fds:
            try:
                os.close(fd)
            except OSError:
                pass

    def exit_status(self):
        try:
            return "exit %d" % self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "still running"

    def stderr_tail(self, lines=8):
        self.stderr.seek(0)
        text = self.stderr.read().decode("utf-8", "replace").strip().splitlines()
        return " | ".join(text[-lines:])

    def _read_message(self):
        """The next message from fd 4, waiting until the launch's deadline."""
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise CheckFailed("Chromium did not answer within its %d s time limit" % LAUNCH_SECONDS)
            ready, _, _ = select.select([self.resp_read], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.resp_read, 1 << 20)
            if not chunk:
                raise CheckFailed("Chromium closed its DevTools pipe (%s): %s"
                                  % (self.exit_status(), self.stderr_tail()))
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None):
        """Sends one command and returns its result; events read meanwhile are kept in self.events."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        try:
            while data:
                data = data[os.write(self.cmd_write, data):]
        except BrokenPipeError:
            raise CheckFailed("Chromium stopped reading (%s) before %s: %s"
                              % (self.exit_status(), method, self.stderr_tail()))
        while True:
            reply = self._read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise CheckFailed("%s failed: %s" % (method, reply["error"].get("message")))
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def evaluate(self, session, expression):
        """The value of a JavaScript expression in the page (thrown exceptions become failures)."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, session)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise CheckFailed("evaluating %.60s... threw %s" % (expression, text))
        return result["result"].get("value")

    def open_page(self):
        """A new tab with a flat session, its runtime, log, page and network domains on, 1280x900."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Page", "Network"):
            self.call(domain + ".enable", {}, session)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session)
        return session

    def close(self):
        """Browser.close, then the teardown; raises when processes survive it."""
        try:
            if self.proc.poll() is None and time.monotonic() < self.deadline:
                self.call("Browser.close")
        except (CheckFailed, OSError):
            pass  # it may exit before it answers; the teardown below makes sure
        finally:
            self._close_fds(self.cmd_write, self.resp_read)
            try:  # Browser.close ends it in well under a second; past the time limit, no grace
                self.chromium.finish(max(0.0, min(10.0, self.deadline - time.monotonic())))
            finally:
                self.stderr.close()


def page_errors(events, page_url):
    """Everything the page reported as an error, and every request for something other than itself."""
    errors = []
    for event in events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = params.get("args", [])
            errors.append("console.%s: %s" % (params["type"], " ".join(
                str(a.get("value", a.get("description", ""))) for a in args)))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            errors.append("uncaught: %s" % (details.get("exception", {}).get("description") or details.get("text")))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            errors.append("log (%s): %s %s" % (entry.get("source"), entry.get("text"), entry.get("url", "")))
        elif method == "Network.requestWillBeSent":
            url = params.get("request", {}).get("url", "")
            if url.split("#")[0] != page_url.split("#")[0] and not url.startswith(("data:", "blob:", "about:")):
                errors.append("the page requested %s (it must be self-contained)" % url)
    return errors


def load(devtools, session, url):
    """Navigates and waits for body.dataset.ready == "1" before the launch's deadline."""
    navigated = devtools.call("Page.navigate", {"url": url}, session)
    if navigated.get("errorText"):
        raise CheckFailed("Chromium could not open %s: %s" % (url, navigated["errorText"]))
    while True:
        ready = devtools.evaluate(session, "document.readyState === 'complete' && document.body !== null"
                                           " && document.body.dataset.ready === '1'")
        if ready:
            return
        if time.monotonic() > devtools.deadline - 2:
            raise CheckFailed("document.body.dataset.ready never became \"1\" (errors: %s)"
                              % ("; ".join(page_errors(devtools.events, url)) or "none"))
        time.sleep(0.1)


def file_url(path, fragment=""):
    return "file://" + urllib.parse.quote(os.path.abspath(path)) + fragment


def check_error_capture(chromium):
    """The negative control: a page with a console.error and an uncaught exception must give both errors,
    so a clean report page means no errors rather than errors nobody listened to."""
    with tempfile.TemporaryDirectory(prefix="byoc-report-control-") as tmp:
        path = os.path.join(tmp, "errors.html")
        with open(path, "w") as f:
            f.write("<!DOCTYPE html><html><body><script>console.error('control error');"
                    "document.body.dataset.ready = '1'; setTimeout(function () { null.f(); }, 0);"
                    "</script></body></html>")
        devtools = DevTools(chromium)
        try:
            try:
                devtools.call("Browser.getVersion")
            except CheckFailed as e:
                raise ChromiumUnavailable("%s does not start: %s" % (chromium, e))
            session = devtools.open_page()
            load(devtools, session, file_url(path))
            devtools.evaluate(session, "new Promise(function (r) { setTimeout(r, 50); })")
            errors = page_errors(devtools.events, file_url(path))
        finally:
            devtools.close()
    if not any("control error" in e for e in errors) or not any(e.startswith("uncaught") for e in errors):
        raise CheckFailed("the error collection missed the control page's errors (got %s)" % errors)


def run_byocc(argv, what):
    """byocc's standard output; a failure names the command and byocc's own message."""
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        raise CheckFailed("%s did not finish in 600 s" % what)
    if done.returncode != 0:
        raise CheckFailed("%s exited with %d: %s" % (what, done.returncode, done.stderr.strip()[-400:]))
    return done.stdout


def has_report_command(byocc):
    """Whether this byocc knows `report` (one that predates it says "unknown command 'report'")."""
    done = subprocess.run([byocc, "report", "--help"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60)
    return "unknown command 'report'" not in done.stdout + done.stderr


def write_report(byocc, model, html_path):
    """byocc report MODEL --backend npu --backend dsp -o HTML."""
    argv = [byocc, "report", model] + BACKEND_ARGS + ["-o", html_path]
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        raise CheckFailed("byocc report %s did not finish in 600 s" % model)
    if done.returncode != 0:
        raise CheckFailed("byocc report exited with %d: %s" % (done.returncode, done.stderr.strip()[-400:]))
    if not os.path.isfile(html_path) or os.path.getsize(html_path) == 0:
        raise CheckFailed("byocc report wrote no %s" % html_path)


def placement_of(byocc, model):
    """The expected graph, from byocc partition --emit json (the same model and backends): the placement
    report's ops (those of @main and of its control-flow bodies, as the page draws them) by node id, in the
    report's order, their devices, and the partitions' names."""
    doc = json.loads(run_byocc([byocc, "partition", model] + BACKEND_ARGS + ["--emit", "json"],
                               "byocc partition %s --emit json" % model))
    ops = doc["nodes"]
    if doc["totals"]["ops"] != len(ops):
        raise CheckFailed("byocc partition --emit json lists %d ops but totals %d" % (len(ops), doc["totals"]["ops"]))
    return {"ops": {str(n["id"]): n["op"] for n in ops},
            "nodes": {str(n["id"]): n for n in ops},
            "devices": {str(n["id"]): n["backend"] for n in ops},
            "order": [str(n["id"]) for n in ops],
            "partitions": sorted(p["function"] for p in doc["partitions"])}


PAGE_FACTS_JS = """(function () {
  function all(selector, attribute) {
    return Array.prototype.map.call(document.querySelectorAll(selector), function (e) {
      return e.getAttribute(attribute); });
  }
  var count = document.getElementById('node-count');
  return {ids: all('g.node', 'data-node-id'), devices: all('g.node', 'data-device'),
          partitions: all('#graph g.partition', 'data-partition'),
          count: count === null ? null : count.textContent.trim(),
          missing: %s.filter(function (id) { return document.getElementById(id) === null; })};
})()""" % json.dumps(list(SECTIONS))


def check_graph(devtools, session, expected):
    """The DOM's nodes (count, ids, devices), #node-count and partitions against the placement."""
    facts = devtools.evaluate(session, PAGE_FACTS_JS)
    if facts["missing"]:
        raise CheckFailed("the page has no section with id %s" % ", ".join(facts["missing"]))
    want = len(expected["ops"])
    if len(facts["ids"]) != want:
        raise CheckFailed("%d g.node elements, but the placement report has %d ops" % (len(facts["ids"]), want))
    if facts["count"] != str(want):
        raise CheckFailed("#node-count says %r, but the placement report has %d ops" % (facts["count"], want))
    if sorted(facts["ids"]) != sorted(expected["ops"]):
        strange = sorted(set(facts["ids"]) ^ set(expected["ops"]))[:5]
        raise CheckFailed("the g.node ids differ from the placement report's (e.g. %s)" % strange)
    for node_id, device in zip(facts["ids"], facts["devices"]):
        if device != expected["devices"][node_id]:
            raise CheckFailed("node %s has data-device %r but was placed on %s"
                              % (node_id, device, expected["devices"][node_id]))
    if sorted(set(facts["partitions"])) != expected["partitions"]:
        raise CheckFailed("the graph boxes partitions %s, the placement has %s"
                          % (sorted(set(facts["partitions"])), expected["partitions"]))
    return want


def shows_op(text, op):
    """Whether a details text names the op ("op:" then the op's name, not a longer name starting with it)."""
    return re.search(r"op:\s*" + re.escape(op) + r"(?![\w.])", text or "") is not None


CLICK_POINT_JS = """(function (id) {
  var g = document.querySelector('g.node[data-node-id="' + id + '"]');
  g.scrollIntoView({block: 'center', inline: 'center'});
  var r = g.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  var hit = document.elementFromPoint(x, y);
  return {x: x, y: y, visible: r.width > 0 && r.height > 0 && hit !== null && hit.closest('g.node') === g};
})(%s)"""
# innerText, as the user reads it: a block (a <p> per field) ends its line, where textContent would run
# "op: nn.conv2d" into the next field's label
DETAILS_JS = "(function () { var d = document.getElementById('details'); return d === null ? null : d.innerText; })()"


def check_click(devtools, session, expected):
    """A left click at a node's centre (the report's first device-placed op whose centre is in the viewport with
    the node itself on top there; else a host one) must put "op: OP" into #details. Returns the node's id."""
    before = devtools.evaluate(session, DETAILS_JS)
    if before is None:
        raise CheckFailed("the page has no #details")
    order = expected["order"]
    candidates = [i for i in order if expected["devices"][i] != "host"] + \
                 [i for i in order if expected["devices"][i] == "host"]
    for node_id in candidates:
        if shows_op(before, expected["ops"][node_id]):
            continue  # the click must change what #details shows
        point = devtools.evaluate(session, CLICK_POINT_JS % json.dumps(node_id))
        if point["visible"]:
            break
    else:
        raise CheckFailed("no node's centre is clickable (every one is hidden or covered)")
    for kind, buttons in (("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)):
        devtools.call("Input.dispatchMouseEvent", {"type": kind, "x": point["x"], "y": point["y"], "button": "left",
                                                   "buttons": buttons, "clickCount": 1}, session)
    op = expected["ops"][node_id]
    end = min(devtools.deadline, time.monotonic() + 5)
    while True:
        details = devtools.evaluate(session, DETAILS_JS)
        if shows_op(details, op):
            return node_id
        if time.monotonic() > end:
            raise CheckFailed("after a click on node %s (%s), #details shows %r" % (node_id, op, (details or "")[:200]))
        time.sleep(0.1)


def check_screenshot(devtools, session, png_path):
    """The whole page (up to MAX_SCREENSHOT_HEIGHT pixels of it) as a PNG of the size its layout gives."""
    content = devtools.call("Page.getLayoutMetrics", {}, session)["cssContentSize"]
    width, height = int(content["width"]), min(int(content["height"]), MAX_SCREENSHOT_HEIGHT)
    data = base64.b64decode(devtools.call("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}}, session)["data"])
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise CheckFailed("Page.captureScreenshot gave no PNG")
    size = (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big"))
    if size != (width, height):
        raise CheckFailed("the screenshot is %dx%d, not the page's %dx%d" % (size + (width, height)))
    with open(png_path, "wb") as f:
        f.write(data)
    return size


# the centre of the first element a selector finds, scrolled into view, and whether a click there reaches it
ELEMENT_POINT_JS = """(function (selector) {
  var e = document.querySelector(selector);
  if (e === null) return null;
  e.scrollIntoView({block: 'center', inline: 'center'});
  var r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  var hit = document.elementFromPoint(x, y);
  return {x: x, y: y, visible: r.width > 0 && r.height > 0 && hit !== null && (hit === e || e.contains(hit))};
})(%s)"""


def mouse_click(devtools, session, selector):
    """A left click (Input.dispatchMouseEvent, as a user's) at the centre of what selector finds."""
    point = devtools.evaluate(session, ELEMENT_POINT_JS % json.dumps(selector))
    if point is None or not point["visible"]:
        raise CheckFailed("%s is %s" % (selector, "not in the page" if point is None else "hidden or covered"))
    for kind, buttons in (("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)):
        devtools.call("Input.dispatchMouseEvent", {"type": kind, "x": point["x"], "y": point["y"], "button": "left",
                                                   "buttons": buttons, "clickCount": 1}, session)


# every number cell of the page's tables on one line, and no word of the kernel table's device, class and exec
# cells broken inside: a Range over a text gives one client rect per line box it spans
UNBROKEN_TEXT_JS = """(function () {
  function lines(node, start, end) {
    var r = document.createRange(), tops = {};
    r.setStart(node, start); r.setEnd(node, end);
    Array.prototype.forEach.call(r.getClientRects(), function (q) { tops[Math.round(q.top)] = 1; });
    return Object.keys(tops).length;
  }
  function text(td) { return td.firstChild !== null && td.firstChild.nodeType === 3 ? td.firstChild : null; }
  var numbers = [], words = [], cells = document.querySelectorAll('td.num');
  Array.prototype.forEach.call(cells, function (td) {
    var t = text(td);
    if (t !== null && lines(t, 0, t.data.length) > 1) numbers.push(t.data);
  });
  var short = document.querySelectorAll('#kernels td:nth-child(n+3):nth-child(-n+5)');
  Array.prototype.forEach.call(short, function (td) {
    var t = text(td), re = /\\S+/g, m;
    while (t !== null && (m = re.exec(t.data)) !== null)
      if (lines(t, m.index, m.index + m[0].length) > 1) words.push(m[0]);
  });
  return {cells: cells.length, words: short.length, numbers: numbers.slice(0, 5), broken: words.slice(0, 5)};
})()"""


def check_unbroken_text(devtools, session):
    """No number in a table (a kernel's index, a time, a size) is broken over two lines, nor a word of a kernel's
    device, class or exec. Returns the count of the cells checked."""
    facts = devtools.evaluate(session, UNBROKEN_TEXT_JS)
    if facts["cells"] == 0 or facts["words"] == 0:
        raise CheckFailed("the page's tables have %d td.num cells and %d kernel device/class/exec cells"
                          % (facts["cells"], facts["words"]))
    if facts["numbers"] or facts["broken"]:
        raise CheckFailed("broken over lines: numbers %s, words %s" % (facts["numbers"], facts["broken"]))
    return facts["cells"] + facts["words"]


NODE_TITLE_JS = """(function (id) {
  var t = document.querySelector('g.node[data-node-id="' + id + '"] > title');
  return t === null ? null : t.textContent;
})(%s)"""


def check_details(devtools, session, expected):
    """The first node a backend declined (else the last node), centred by #node=N, #details emptied, then clicked:
    #details shows every field the placement report gives it (ONNX name, op, device, composite, partition, kernel,
    reason, and each declining backend's reason), and its hover title names its op and ends with the reason.
    Returns (node id, the number of declines)."""
    order = expected["order"]
    node_id = next((i for i in order if expected["nodes"][i]["declined"]), order[-1])
    node = expected["nodes"][node_id]
    devtools.evaluate(session, "location.hash = '#node=%s'; new Promise(function (r) { setTimeout(r, 100); })"
                      % node_id)
    devtools.evaluate(session, "document.getElementById('details').textContent = ''; 1")
    mouse_click(devtools, session, 'g.node[data-node-id="%s"]' % node_id)
    want = ["op: " + node["op"], "ONNX name: " + (node["source"] or "-"), "device: " + node["backend"],
            "composite: " + (node["composite"] or "-"), "partition: " + (node["partition"] or "- (on the host)"),
            "kernel: ", "reason: "] + ["%s: %s" % (d["backend"], d["reason"]) for d in node["declined"]]
    end = min(devtools.deadline, time.monotonic() + 5)
    while True:
        text = devtools.evaluate(session, DETAILS_JS) or ""
        missing = [w for w in want if w not in text]
        if not missing:
            break
        if time.monotonic() > end:
            raise CheckFailed("after a click on node %s, #details lacks %s: %r" % (node_id, missing, text[:300]))
        time.sleep(0.1)
    reason = re.search(r"reason: (.*)", text).group(1).strip()
    title = devtools.evaluate(session, NODE_TITLE_JS % json.dumps(node_id)) or ""
    if not title.startswith(node["op"]) or title.splitlines()[-1].strip() != reason:
        raise CheckFailed("node %s's hover title %r does not give its op and its reason %r" % (node_id, title, reason))
    return node_id, len(node["declined"])


VIEW_JS = """(function () {
  var svg = document.getElementById('graph-svg'), v = svg.viewBox.baseVal;
  function shown(id) { var g = document.getElementById(id); return g !== null && g.getAttribute('display') !== 'none'; }
  function size(id) {
    var g = document.getElementById(id);
    return g === null ? null : [+g.dataset.width, +g.dataset.height];
  }
  var label = document.querySelector('#view-expanded g.node text');
  return {box: [v.x, v.y, v.width, v.height], expanded: shown('view-expanded'), collapsed: shown('view-collapsed'),
          expandedSize: size('view-expanded'), collapsedSize: size('view-collapsed'),
          partitionNodes: document.querySelectorAll('#view-collapsed g.partition-node').length,
          labelPixels: label === null ? 0 : label.getBoundingClientRect().height};
})()"""
MIN_LABEL_PIXELS = 9  # a node's label on the first screen is text one reads, not a speck


def check_views(devtools, session, expected):
    """The graph's controls, each by a click as a user's: the first screen shows labels one can read; zoom in and
    zoom out scale the view by 0.8 and back; fit shows the whole drawing; "collapse partitions" shows the
    collapsed view (one box a partition, a shorter drawing); a click on a partition's box there expands again."""
    def view():
        return devtools.evaluate(session, VIEW_JS)

    def close(a, b):
        return abs(a - b) <= 1e-3 * max(1.0, abs(b))

    first = view()
    if not first["expanded"] or first["collapsed"]:
        raise CheckFailed("the page does not open on the expanded graph")
    if first["labelPixels"] < MIN_LABEL_PIXELS:
        raise CheckFailed("the first screen's labels are %.1f px high (below %d px)"
                          % (first["labelPixels"], MIN_LABEL_PIXELS))
    mouse_click(devtools, session, 'button[data-act="in"]')
    zoomed = view()["box"]
    mouse_click(devtools, session, 'button[data-act="out"]')
    back = view()["box"]
    if not (close(zoomed[2], first["box"][2] * 0.8) and close(back[2], first["box"][2])):
        raise CheckFailed("zoom in / zoom out gave view widths %.1f and %.1f from %.1f"
                          % (zoomed[2], back[2], first["box"][2]))
    mouse_click(devtools, session, 'button[data-act="fit"]')
    width, height = first["expandedSize"]
    fitted = view()["box"]
    if not (close(fitted[2], width + 40) and close(fitted[3], height + 50)):
        raise CheckFailed("fit shows %.0fx%.0f of a %.0fx%.0f drawing" % (fitted[2], fitted[3], width, height))
    mouse_click(devtools, session, 'button[data-act="collapse"]')
    collapsed = view()
    parts = len(expected["partitions"])
    if not collapsed["collapsed"] or collapsed["expanded"]:
        raise CheckFailed("collapse partitions did not switch to the collapsed view")
    if collapsed["partitionNodes"] != parts:
        raise CheckFailed("the collapsed view has %d partition boxes for %d partitions"
                          % (collapsed["partitionNodes"], parts))
    if not collapsed["collapsedSize"][1] < height:
        raise CheckFailed("the collapsed drawing is %.0f high, the expanded one %.0f"
                          % (collapsed["collapsedSize"][1], height))
    mouse_click(devtools, session, "#view-collapsed g.partition-node rect")
    again = view()
    if not again["expanded"] or again["collapsed"]:
        raise CheckFailed("a click on a partition's box in the collapsed view did not expand it again")
    return parts, height / collapsed["collapsedSize"][1]


def check_in_devtools(chromium, name, html_path, png_path, expected):
    """One launch: load, graph, click, screenshot, then no errors. Prints an ok line per check passed."""
    url = file_url(html_path)
    devtools = DevTools(chromium)
    try:
        session = devtools.open_page()
        started = time.monotonic()
        load(devtools, session, url)
        print("ok report_browser:%s:loaded (body.dataset.ready in %.1f s)" % (name, time.monotonic() - started))
        count = check_graph(devtools, session, expected)
        print("ok report_browser:%s:graph (%d nodes, %d partitions)" % (name, count, len(expected["partitions"])))
        cells = check_unbroken_text(devtools, session)
        print("ok report_browser:%s:text_unbroken (%d cells: numbers on one line, no word split)" % (name, cells))
        clicked = check_click(devtools, session, expected)
        print("ok report_browser:%s:click (node %s shows op: %s)" % (name, clicked, expected["ops"][clicked]))
        detailed, declines = check_details(devtools, session, expected)
        print("ok report_browser:%s:details (node %s: every field, %d declining backends' reasons, the hover title)"
              % (name, detailed, declines))
        if expected["partitions"]:
            parts, shorter = check_views(devtools, session, expected)
            print("ok report_browser:%s:views (zoom in, out, fit; %d partitions collapsed, %.1fx shorter, and "
                  "expanded again)" % (name, parts, shorter))
        size = check_screenshot(devtools, session, png_path)
        print("ok report_browser:%s:screenshot (%s, %dx%d)" % ((name, png_path) + size))
        devtools.evaluate(session, "new Promise(function (r) { setTimeout(r, 100); })")  # late errors arrive
        errors = page_errors(devtools.events, url)
        if errors:
            raise CheckFailed("%d errors: %s" % (len(errors), "; ".join(errors)[:600]))
        print("ok report_browser:%s:no_errors" % name)
    finally:
        devtools.close()


class DetailsText(html.parser.HTMLParser):
    """From a dumped DOM: the text inside the element with id "details" (a line break where a block element
    starts or ends, as innerText has), and body's data-ready."""
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
    BLOCKS = {"address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure",
              "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
              "section", "table", "td", "th", "tr", "ul"}

    def __init__(self):
        super().__init__()
        self.depth, self.parts, self.ready = 0, [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.ready = attrs.get("data-ready")
        if self.depth:
            self.depth += tag not in self.VOID
            if tag in self.BLOCKS:
                self.parts.append("\n")
        elif attrs.get("id") == "details":
            self.depth = 1

    def handle_endtag(self, tag):
        if self.depth and tag not in self.VOID:
            self.depth -= 1
            if tag in self.BLOCKS:
                self.parts.append("\n")

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


def check_dump_dom(chromium, html_path, expected):
    """chromium --dump-dom FILE#node=N (N: the report's last op): the serialized DOM after the page's script ran
    must have body data-ready="1" and node N's op in #details. Returns N."""
    node_id = expected["order"][-1]
    flags = ["--virtual-time-budget=10000", "--dump-dom", file_url(html_path, "#node=" + node_id)]
    launch = Chromium(chromium, flags, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc = launch.proc
    try:
        out, err = proc.communicate(timeout=LAUNCH_SECONDS)
    except subprocess.TimeoutExpired:
        raise CheckFailed("chromium --dump-dom did not finish within %d s" % LAUNCH_SECONDS)
    finally:
        launch.finish(0)
    parser = DetailsText()
    parser.feed(out.decode("utf-8", "replace"))
    details = "".join(parser.parts)
    if proc.returncode != 0:
        raise CheckFailed("chromium --dump-dom exited with %d: %s" % (proc.returncode, err.decode()[-300:]))
    if parser.ready != "1":
        raise CheckFailed("in the dumped DOM, body's data-ready is %r, not \"1\"" % parser.ready)
    if not shows_op(details, expected["ops"][node_id]):
        raise CheckFailed("with #node=%s (%s), the dumped #details is %r" % (node_id, expected["ops"][node_id],
                                                                             details[:200]))
    return node_id


THOUSAND_OP_BLOCKS = 168  # each block six ops (conv2d, bias_add, relu, an activation, add, multiply): 1,008 ops


def thousand_op_model(build):
    """BUILD/report_thousand_ops/model.onnx, written with Debian's python3-onnx: a chain of residual blocks whose
    activations alternate between ops the npu and the dsp take, so the page draws ~1,000 nodes in hundreds of
    partitions (the issue's "readable for a 1,000-node model"). None, saying why, without python3-onnx."""
    try:
        import numpy
        from onnx import TensorProto, helper, numpy_helper
    except ImportError as e:
        print("skipped report_browser:thousand_ops: /usr/bin/python3 cannot build its model (%s; apt-get install "
              "python3-onnx python3-numpy)" % e)
        return None
    rng = numpy.random.default_rng(26)
    nodes, weights, value = [], [], "x"
    for b in range(THOUSAND_OP_BLOCKS):
        act = ("Sigmoid", "Tanh", "Erf", "Exp")[b % 4]
        weights += [numpy_helper.from_array((rng.standard_normal((8, 8, 3, 3)) * 0.1).astype(numpy.float32),
                                            "w%d" % b),
                    numpy_helper.from_array((rng.standard_normal(8) * 0.1).astype(numpy.float32), "b%d" % b)]
        nodes += [helper.make_node("Conv", [value, "w%d" % b, "b%d" % b], ["c%d" % b], name="conv%d" % b,
                                   pads=[1, 1, 1, 1]),
                  helper.make_node("Relu", ["c%d" % b], ["r%d" % b], name="relu%d" % b),
                  helper.make_node(act, ["r%d" % b], ["a%d" % b], name="%s%d" % (act.lower(), b)),
                  helper.make_node("Add", ["a%d" % b, value], ["s%d" % b], name="add%d" % b),
                  helper.make_node("Mul", ["s%d" % b, "r%d" % b], ["m%d" % b], name="mul%d" % b)]
        value = "m%d" % b
    shape = [1, 8, 16, 16]
    graph = helper.make_graph(nodes, "thousand_ops", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info(value, TensorProto.FLOAT, shape)], weights)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    folder = os.path.join(build, "report_thousand_ops")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "model.onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    return path


def models_to_check(build):
    """(name, model) pairs: the shared squeezenet_rand when the shared models are there, a test-built one, and a
    1,000-op one built here."""
    shared = os.environ.get("BYOC_MODELS") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                           "..", "..", "shared", "models")
    models = []
    squeezenet = os.path.join(shared, "squeezenet_rand", "model.onnx")
    if os.path.isfile(squeezenet):
        models.append(("squeezenet_rand", squeezenet))
    else:
        print("skipped report_browser:squeezenet_rand: %s is not there (BYOC_MODELS=DIR points elsewhere)" % squeezenet)
    here = os.path.dirname(os.path.abspath(__file__))
    models.append(("fpn_resize", os.path.join(here, "models", "fpn_resize", "model.onnx")))
    thousand = thousand_op_model(build)
    if thousand:
        models.append(("thousand_ops", thousand))
    return models


def check_model(byocc, build, chromium, name, model):
    html_path = os.path.join(build, "report_%s.html" % name)
    try:
        write_report(byocc, model, html_path)
        expected = placement_of(byocc, model)
        check_in_devtools(chromium, name, html_path, os.path.join(build, "report_%s.png" % name), expected)
        node_id = check_dump_dom(chromium, html_path, expected)
        print("ok report_browser:%s:dump_dom (#node=%s shows op: %s)" % (name, node_id, expected["ops"][node_id]))
    except (CheckFailed, ChromiumUnavailable) as e:
        print("FAIL report_browser:%s: %s" % (name, e))
        return False
    return True


def main(argv):
    if len(argv) < 2:
        print("usage: report_browser.py BYOCC [BUILD]", file=sys.stderr)
        return 2
    byocc = argv[1]
    build = argv[2] if len(argv) > 2 else os.path.dirname(byocc) or "."
    if not os.access(byocc, os.X_OK):
        print("FAIL report_browser: %s is not an executable (make builds it)" % byocc)
        return 1
    models = models_to_check(build)
    if not has_report_command(byocc):  # nothing below can run without it, with or without Chromium
        print("skipped report_browser: %s" % NO_REPORT_COMMAND)
        return 0
    chromium = find_chromium()
    if chromium is None:
        print("skipped report_browser: no chromium binary (the Makefile's apt-get install chromium did not give one;"
              " CHROMIUM=PATH names another)")
        return 0
    try:
        check_error_capture(chromium)
        print("ok report_browser:error_capture (a console.error and an uncaught exception are caught)")
    except ChromiumUnavailable as e:
        print("skipped report_browser: Chromium cannot run here: %s" % e)
        return 0
    except CheckFailed as e:
        print("FAIL report_browser:error_capture: %s" % e)
        return 1
    failed = [name for name, model in models if not check_model(byocc, build, chromium, name, model)]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
