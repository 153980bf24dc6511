#!/bin/sh
# The Collage search's result pinned: every shared model ($BYOC_MODELS, default ../shared/models, zoo_light's
# graphs included), every model of tests/models and tests/cflow is partitioned across npu + dsp + host by
# `byocc partition --strategy collage --save-placement`, and the placement file and the searched plan's cost
# (with the greedy plan's it is compared to: "collage: plan X ms against greedy Y ms") must equal the saved ones
# in tests/collage_plans/NAME.placement and NAME.cost, byte for byte. The saved files are the results of the
# search before it was reworked for speed (issue 25): the rework is exact, so any difference is a regression.
# The search runs on two threads (--threads 2: the baseline plans beside the candidates), as byocc does on a
# machine with two cores or more; test_collage_search checks one thread finds the same.
# COLLAGE_PLANS_UPDATE=1 rewrites the saved files instead (only after a deliberate change of the search).
# One "ok NAME" / "FAIL NAME: why" line per model; without the shared models, one line saying why they skipped.
BYOCC=${1:-build/byocc}
MODELS=${BYOC_MODELS:-../shared/models}
SAVED=${COLLAGE_PLANS:-tests/collage_plans}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the plan of one model against the saved one (or saved, under COLLAGE_PLANS_UPDATE=1)
plan_unchanged() { # name model.onnx
    name=$1
    if ! "$BYOCC" partition "$2" --backend npu --backend dsp --strategy collage --threads 2 --save-placement "$tmp/p" \
        > "$tmp/log" 2>&1; then
        echo "FAIL collage_plan:$name: $(grep error "$tmp/log" | head -2 | tr '\n' ' ')"
        return
    fi
    awk '/^collage: plan/ { for (i = 1; i < NF; i++) { if ($i == "plan") p = $(i + 1)
                                                     if ($i == "greedy") g = $(i + 1) } }
         END { print "plan " p " ms, greedy " g " ms" }' \
        "$tmp/log" > "$tmp/c"
    if [ -n "$COLLAGE_PLANS_UPDATE" ]; then
        cp "$tmp/p" "$SAVED/$name.placement" && cp "$tmp/c" "$SAVED/$name.cost" && echo "ok collage_plan:$name (saved)"
    elif [ ! -f "$SAVED/$name.placement" ] || [ ! -f "$SAVED/$name.cost" ]; then
        echo "FAIL collage_plan:$name: no saved plan in $SAVED (COLLAGE_PLANS_UPDATE=1 saves one)"
    elif ! cmp -s "$tmp/p" "$SAVED/$name.placement"; then
        first=$(diff "$SAVED/$name.placement" "$tmp/p" | grep '^[<>]' | head -2 | tr '\n' ' ')
        echo "FAIL collage_plan:$name: the placement differs from $SAVED/$name.placement: $first"
    elif ! cmp -s "$tmp/c" "$SAVED/$name.cost"; then
        echo "FAIL collage_plan:$name: cost $(cat "$tmp/c"), saved $(cat "$SAVED/$name.cost")"
    else
        echo "ok collage_plan:$name"
    fi
}

if [ -d "$MODELS" ]; then
    for dir in "$MODELS"/*/; do
        [ -f "$dir/model.onnx" ] && plan_unchanged "$(basename "$dir")" "$dir/model.onnx"
    done
    for model in "$MODELS"/zoo_light/*.onnx; do
        [ -f "$model" ] && plan_unchanged "zoo_light_$(basename "$model" .onnx)" "$model"
    done
else
    echo "skipped the shared models' Collage plans: $MODELS is not there (BYOC_MODELS=DIR points elsewhere)"
fi
for dir in tests/models/*/ tests/cflow/*/; do
    [ -f "$dir/model.onnx" ] && plan_unchanged "$(basename "$dir")" "$dir/model.onnx"
done
