#!/usr/bin/env bash
# Screenshots of the committed upgrade report as a reader sees it: reports/upgrade/report.md
# rendered at GitHub's 980-pixel content width (Python-Markdown with tables, GitHub's body font
# sizes, the charts inline), and report.html as the bench writes it. They land in
# docs/screenshots/, to be looked at after a change to the report or its charts.
#
# Usage: scripts/screenshots.sh. Installs Debian's chromium and Python-Markdown when missing (not
# needed by `make test`), writes report.html with the release build, and takes each page whole.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/docs/screenshots
mkdir -p "$out"

if ! command -v chromium >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y chromium fonts-dejavu-core
fi
python3 -c "import markdown" 2>/dev/null || python3 -m pip install --quiet markdown

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product bench --package-path "$root" >/dev/null
bench=$(swift build -c release --show-bin-path --package-path "$root")/bench
# The committed report, and the same run's report.html.
(cd "$root" && "$bench" scenarios/upgrade.json --html --out "$work/reports" --quiet)
cmp -s "$work/reports/upgrade/report.md" "$root/reports/upgrade/report.md" ||
  { echo "screenshots: reports/upgrade/report.md is stale: run 'make run' first" >&2; exit 1; }

python3 - "$work/reports/upgrade" <<'PYTHON'
import pathlib, sys
import markdown

folder = pathlib.Path(sys.argv[1])
body = markdown.markdown((folder / "report.md").read_text(), extensions=["tables", "fenced_code"])
# GitHub's rendering of a Markdown file: a 980-pixel column, 16-pixel text, bordered tables.
style = """
body { box-sizing: border-box; width: 980px; margin: 0; padding: 32px; font: 16px/1.5 'DejaVu Sans', sans-serif; color: #1f2328; }
table { border-collapse: collapse; display: block; overflow: auto; margin: 0 0 16px; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
tr:nth-child(2n) { background: #f6f8fa; }
img { max-width: 100%; }
h1, h2 { border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; }
code { background: #eff1f3; padding: .2em .4em; border-radius: 6px; font-size: 85%; }
"""
(folder / "report-md.html").write_text(f"<!doctype html><meta charset='utf-8'><style>{style}</style>{body}")
PYTHON

# shoot PAGE IMAGE HEIGHT: the page in a 980-pixel window of HEIGHT pixels.
shoot() {
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=980,"$3" \
    --screenshot="$2" "file://$1" >/dev/null 2>&1
}
# The first screen, which says what to do, and the whole report (the window as tall as the page).
for page in report-md report; do
  file=$work/reports/upgrade/$page.html
  shoot "$file" "$out/upgrade-$page-first-screen.png" 1100
  shoot "$file" "$out/upgrade-$page.png" 8600
done
echo "screenshots: wrote docs/screenshots/upgrade-report-md*.png and upgrade-report*.png"
