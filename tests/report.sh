#!/bin/sh
# byocc report: the HTML page of a shared model, of test-built models (a transformer, a loop with an if inside)
# and of a module whose node names hold HTML, checked for structure against `byocc partition --emit json` of the
# same model and backends: one g.node per op with the same ids and devices (and the count the page states), one
# g.partition per partition, every section, no network URL or external resource, every inline SVG well-formed
# XML, names escaped. Prints "ok NAME" or "FAIL NAME: why" per page. Usage: sh tests/report.sh BYOCC
BYOCC=${1:-build/byocc}
PY=/usr/bin/python3
MODELS=${BYOC_SHARED_MODELS:-../shared/models}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/check.py" <<'EOF'
import json, re, sys, xml.etree.ElementTree as ET
from html.parser import HTMLParser

page_path, plan_path, want_other = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
page = open(page_path, encoding="utf-8").read()
plan = json.load(open(plan_path))

class Walk(HTMLParser):
    def __init__(self):
        super().__init__()
        self.nodes, self.partitions, self.ids, self.count, self.in_count = [], [], set(), None, False
        self.resources = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "g" and "node" in cls: self.nodes.append(a)
        if tag == "g" and "partition" in cls: self.partitions.append(a)
        if "id" in a: self.ids.add(a["id"])
        if tag == "span" and a.get("id") == "node-count": self.in_count = True
        for key in ("src", "href"):
            if key in a and not (a[key].startswith("#") or a[key].startswith("data:")): self.resources.append(a[key])
    def handle_data(self, data):
        if self.in_count: self.count, self.in_count = data, False

w = Walk()
w.feed(page)
problems = []
def need(ok, why):
    if not ok: problems.append(why)

ops = plan["nodes"]
need(w.count == str(len(ops)), "node-count says %s, the model has %d ops" % (w.count, len(ops)))
need(len(w.nodes) == len(ops), "%d g.node elements for %d ops" % (len(w.nodes), len(ops)))
page_ids = sorted(int(n["data-node-id"]) for n in w.nodes)
need(page_ids == sorted(o["id"] for o in ops), "the nodes' ids differ from the placement's")
devices = {int(n["data-node-id"]): n.get("data-device") for n in w.nodes}
moved = [o["id"] for o in ops if devices.get(o["id"]) != o["backend"]]
need(not moved, "nodes on another device than the placement says: %s" % moved[:5])
need(all(n.get("data-op") for n in w.nodes), "a node without its op")
need(sorted(p["data-partition"] for p in w.partitions) == sorted(p["function"] for p in plan["partitions"]),
     "the partitions differ from the placement's")
for section in ("graph", "timeline", "plans", "memory", "kernels", "details", "node-count"):
    need(section in w.ids, "no element with id %s" % section)
urls = re.findall(r".{0,30}(?:https?:|//[a-z]).{0,30}", page, re.I)
need(not urls, "a URL in the page: %s" % urls[:2])
need(not w.resources, "external resources: %s" % w.resources[:3])
need("document.body.dataset.ready" in page, "the script does not set body.dataset.ready")
need(("Ops that moved" in page or "No op moved" in page) == want_other, "the plans section does not compare two plans"
     if want_other else "a second plan without backends")
svgs = re.findall(r"<svg\b.*?</svg>", page, re.S)
need(len(svgs) >= (1 if '<svg class="tl-svg"' not in page else 2), "%d svg elements" % len(svgs))
for k, svg in enumerate(svgs):
    try:
        root = ET.fromstring(svg)
        need(root.get("viewBox") is not None, "svg %d has no viewBox" % k)
    except ET.ParseError as e:
        problems.append("svg %d is not well-formed: %s" % (k, e))
print("; ".join(problems[:4]) if problems else "")
EOF

# page NAME MODEL BACKEND...: the report and the partition JSON with the same backends, compared
page() {
    name=$1 model=$2
    shift 2
    backends=""
    for b in "$@"; do backends="$backends --backend $b"; done
    if [ ! -f "$model" ]; then echo "skipped report_$name: $model is not there"; return; fi
    # shellcheck disable=SC2086
    if ! "$BYOCC" report "$model" $backends --threads 1 -o "$tmp/$name.html" > "$tmp/$name.out" 2>&1; then
        echo "FAIL report_$name: byocc report failed: $(tail -3 "$tmp/$name.out" | tr '\n' ' ')"; return
    fi
    # shellcheck disable=SC2086
    "$BYOCC" partition "$model" $backends --emit json > "$tmp/$name.json" 2> "$tmp/$name.err"
    why=$("$PY" "$tmp/check.py" "$tmp/$name.html" "$tmp/$name.json" 1 2>&1)
    if [ -n "$why" ]; then echo "FAIL report_$name: $why"; else echo "ok report_$name"; fi
}

page mnist8_npu_dsp "$MODELS/mnist8/model.onnx" npu dsp
page squeezenet_npu "$MODELS/squeezenet_rand/model.onnx" npu
page transformer_npu_dsp tests/models/transformer_einsum/model.onnx npu dsp
page loop_if_npu tests/cflow/loop_if_clip/model.onnx npu dsp

# no backend: every op on the host, one plan, and the node count still the model's op count
small=tests/models/transformer_einsum/model.onnx
"$BYOCC" report "$small" -o "$tmp/host.html" > "$tmp/host.out" 2>&1
ops=$("$BYOCC" partition "$small" --backend npu --emit json 2>/dev/null | "$PY" -c \
    'import json, sys; print(len(json.load(sys.stdin)["nodes"]))')
nodes=$(grep -c '<g class="node"' "$tmp/host.html")
hosted=$(grep -c '<g class="node" data-node-id="[0-9]*" data-device="host"' "$tmp/host.html")
if [ "$nodes" = "$ops" ] && [ "$hosted" = "$ops" ] && grep -q "<span id=\"node-count\">$ops</span>" "$tmp/host.html" &&
   grep -q 'One plan only' "$tmp/host.html"; then
    echo "ok report_host_only"
else
    echo "FAIL report_host_only: $nodes nodes ($hosted on the host) for $ops ops"
fi

# names from the model file are text, never markup
cat > "$tmp/evil.relay" <<'EOF'
def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {
  %0 = nn.conv2d(%x, %w, channels=4, kernel_size=[3, 3]) /* span=onnx:<script>alert("x&y")</script> */;
  nn.relu(%0) /* span=onnx:'q'<b> */
}
EOF
"$BYOCC" report "$tmp/evil.relay" --backend npu -o "$tmp/evil.html" > "$tmp/evil.out" 2>&1
if [ -f "$tmp/evil.html" ] && [ "$(grep -c '<script' "$tmp/evil.html")" = 1 ] && ! grep -q '<b>' "$tmp/evil.html" &&
   grep -q 'data-name="onnx:&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt;"' "$tmp/evil.html" &&
   grep -q 'data-name="onnx:&#39;q&#39;&lt;b&gt;"' "$tmp/evil.html"; then
    echo "ok report_escapes_names"
else
    echo "FAIL report_escapes_names: $(cat "$tmp/evil.out") $(grep -o 'data-name="[^"]*"' "$tmp/evil.html" | tr '\n' ' ')"
fi

# usage and refusals
if "$BYOCC" report --help | grep -q '^usage: byocc report MODEL' &&
   ! "$BYOCC" report "$small" > /dev/null 2>&1 &&
   "$BYOCC" report "$small" 2>&1 | grep -q 'no output file (-o REPORT.html)'; then
    echo "ok report_usage"
else
    echo "FAIL report_usage: --help or the missing -o is not as documented"
fi
exit 0
