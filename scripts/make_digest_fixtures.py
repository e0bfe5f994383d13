#!/usr/bin/env python3
"""Writes the reference digests the Digests tests compare with.

The reference is Python's hashlib (MD5, SHA-1, SHA-256). Messages are the
bytes (7 i + 3) mod 256 for i < length, at the lengths where the padding
changes shape (55, 56 and 64 bytes fill or overflow a block), plus FIPS 180's
and RFC 1321's examples.
"""
import hashlib
import json
import pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "Tests/DigestsTests/Fixtures/digests.json"
ALGORITHMS = ["md5", "sha1", "sha256"]


def message(length):
    return bytes((7 * i + 3) % 256 for i in range(length))


def digests(data):
    return {name: hashlib.new(name, data).hexdigest() for name in ALGORITHMS}


def main():
    lengths = [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 100_003]
    texts = [("", 1), ("abc", 1), ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1), ("a", 1_000_000),
             ("ünïcödé ✓", 3), ("message digest", 1),
             ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", 1)]
    fixtures = {
        "pattern": [{"length": n, **digests(message(n))} for n in lengths],
        "text": [{"text": t, "repeat": r, **digests(t.encode() * r)} for t, r in texts],
    }
    OUT.write_text(json.dumps(fixtures, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
