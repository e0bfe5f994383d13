#!/usr/bin/env python3
"""Writes what JavaScript itself answers for the comparisons GrowthBook's conditions make.

GrowthBook's SDK suite orders values as JavaScript's `<`, `<=`, `>` and `>=` do (a string against a
number is read with `Number()`, a missing attribute is null, which is 0); the Bucketing module does
the same in Swift (`GrowthBookCondition.order`, `JavaScriptNumber.parse`). This script asks Node.js
for the truth on every pair of a list of values, and for `Number(text)` on a list of texts, and
writes Tests/BucketingTests/Fixtures/javascript.json, which `JavaScriptComparisonTests` holds the
module to. NaN and the infinities are written as the strings "NaN", "Infinity" and "-Infinity".

Run: python3 scripts/make_javascript_fixtures.py   (needs `node` on the PATH; `make test` does not)
"""
import json
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "BucketingTests" / "Fixtures" / "javascript.json"

TEXTS = [
    "", " ", "0", "-0", "12", " 12 ", "\n\t7\u00a0", "\u2028 8 \ufeff", "+5", "-5", "5.", ".5", "-.5", ".", "+", "-",
    "1e3", "1E3", "1e+3", "1e-3", "1e", "e3", "1.5e2.5", "0x1A", "0X1a", "0x", "-0x10", "+0x10", "0o17", "0O17",
    "0o8", "0b101", "0B2", "Infinity", "-Infinity", "+Infinity", "infinity", "inf", "NaN", "1_000", "1,000", "١٢",
    "12abc", "abc", "00012", "0.1e1", "9007199254740993", "1e400", "-1e400", "0x1fffffffffffff",
]

VALUES = [None, True, False, 0, -1, 5, 5.5, 10, 1e21, "", " ", "5", "05", "5.0", "10", "abc", "Abc", "0x10", "1e1",
          "é", "e\u0301", "😀", "\uffff"]

SCRIPT = r"""
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const write = (x) => Number.isNaN(x) ? 'NaN' : x === Infinity ? 'Infinity' : x === -Infinity ? '-Infinity' : x;
const numbers = input.texts.map((text) => ({text, value: write(Number(text))}));
const comparisons = [];
for (const a of input.values) {
  for (const b of input.values) {
    comparisons.push({a, b, lt: a < b, lte: a <= b, gt: a > b, gte: a >= b});
  }
}
process.stdout.write(JSON.stringify({node: process.version, numbers, comparisons}));
"""


def main():
    result = subprocess.run(["node", "-e", SCRIPT], input=json.dumps({"texts": TEXTS, "values": VALUES}),
                            capture_output=True, text=True, check=True)
    data = json.loads(result.stdout)
    OUT.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(data['numbers'])} texts, {len(data['comparisons'])} comparisons, node {data['node']}")


if __name__ == "__main__":
    main()
