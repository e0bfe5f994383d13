#!/usr/bin/env python3
"""Writes the SHA-256 reference digests the Sharding tests compare with.

The reference is Python's hashlib. Messages are the bytes (7 i + 3) mod 256
for i < length, at the lengths where the padding changes shape (55, 56 and
64 bytes fill or overflow a block), plus FIPS 180's examples.
"""
import hashlib
import json
import pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "Tests/ShardingTests/Fixtures/sha256.json"


def message(length):
    return bytes((7 * i + 3) % 256 for i in range(length))


def main():
    lengths = [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 100_003]
    fixtures = {
        "pattern": [{"length": n, "sha256": hashlib.sha256(message(n)).hexdigest()} for n in lengths],
        "text": [
            {"text": t, "repeat": r, "sha256": hashlib.sha256(t.encode() * r).hexdigest()}
            for t, r in [("", 1), ("abc", 1), ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1),
                         ("a", 1_000_000), ("ünïcödé ✓", 3)]
        ],
    }
    OUT.write_text(json.dumps(fixtures, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
