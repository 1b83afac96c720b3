"""Build the CJK font subsets shipped with ClusterBuy (PDF reports and SVG charts).

Why a subset: WeasyPrint rebuilds the embedded font subset from the whole source font on
every render; the 19 MB Noto Sans CJK collection costs ~5.5 s per report, a GB2312
subset ~1.25 s (see /work/shared/reference/pdf-rendering.md). The subset also makes
the PDF and the charts independent of the fonts installed on the machine.

Source: Debian package ``fonts-noto-cjk`` (Noto Sans CJK SC, version 2.004, SIL OFL 1.1).
Output: ``NotoSansSC-Subset-Regular.otf`` and ``NotoSansSC-Subset-Bold.otf`` next to this
file, family renamed to "Noto Sans SC Subset" so it never collides with a system
"Noto Sans CJK SC" in font lookups. ``OFL.txt`` is written from the Debian copyright file.

Run from the repository root:  ``.venv/bin/python static/fonts/make_subset.py``
The result is deterministic for a given source font and fontTools version.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

HERE = Path(__file__).resolve().parent
SOURCE_DIR = Path("/usr/share/fonts/opentype/noto")
SOURCES = {
    "Regular": SOURCE_DIR / "NotoSansCJK-Regular.ttc",
    "Bold": SOURCE_DIR / "NotoSansCJK-Bold.ttc",
}
SC_POSTSCRIPT_PREFIX = "NotoSansCJKsc-"
FAMILY = "Noto Sans SC Subset"
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")

# Unicode blocks kept in full besides GB2312: the symbols a TCO report prints
# (¥ € ± × ÷ ≤ ≥ → ° ‰ №, arrows, maths, box drawing, enclosed numbers, full-width forms).
EXTRA_RANGES: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),  # ASCII printable
    (0x00A0, 0x00FF),  # Latin-1 supplement (¥ £ ± × ÷ ° µ ...)
    (0x0100, 0x017F),  # Latin Extended-A (names: Łódź, Šimon ...)
    (0x02C6, 0x02DD),  # spacing modifiers (ˆ ˇ ˘ ˙ ˚ ˛ ˜ ˝)
    (0x0391, 0x03C9),  # Greek (Δ σ μ in formulas)
    (0x2000, 0x206F),  # general punctuation (– — ‘ ’ “ ” … ‰ ※)
    (0x2070, 0x209F),  # super/subscripts
    (0x20A0, 0x20CF),  # currency symbols (€ ₩ ₹ ...)
    (0x2100, 0x214F),  # letterlike (℃ № ™)
    (0x2150, 0x218F),  # number forms (Ⅰ Ⅱ ...)
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators (≤ ≥ ≈ ≠ ∑ √ ∞)
    (0x2300, 0x23FF),  # misc technical
    (0x2460, 0x24FF),  # enclosed alphanumerics (① ②)
    (0x2500, 0x257F),  # box drawing
    (0x2580, 0x25FF),  # block elements, geometric shapes (■ □ ▲ ●)
    (0x2600, 0x26FF),  # misc symbols (★ ☆)
    (0x2700, 0x27BF),  # dingbats (✓ ✗)
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # kana (GB2312 rows 4-5)
    (0x3200, 0x32FF),  # enclosed CJK (㈠)
    (0x3300, 0x33FF),  # CJK compatibility (㎡ ㎏ ㎾)
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0xFF00, 0xFFEF),  # half-/full-width forms (￥ ，。)
    (0xFFFD, 0xFFFD),  # replacement character
)


def gb2312_codepoints() -> set[int]:
    """Every character GB2312 encodes (rows 0xA1-0xF7, cells 0xA1-0xFE)."""
    chars: set[int] = set()
    for hi in range(0xA1, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                text = bytes((hi, lo)).decode("gb2312")
            except UnicodeDecodeError:
                continue
            chars.update(ord(c) for c in text)
    return chars


def wanted_codepoints() -> set[int]:
    cps = gb2312_codepoints()
    for lo, hi in EXTRA_RANGES:
        cps.update(range(lo, hi + 1))
    return cps


def load_sc_face(path: Path):
    collection = TTCollection(str(path))
    for font in collection.fonts:
        ps_name = font["name"].getDebugName(6) or ""
        if ps_name.startswith(SC_POSTSCRIPT_PREFIX):
            return font
    raise SystemExit(f"no Simplified Chinese face in {path}")


def rename(font, style: str) -> None:
    """Give the derivative its own family name (OFL: a Modified Version; the only
    Reserved Font Name of Noto CJK is "Source", which we do not use)."""
    name = font["name"]
    full = f"{FAMILY} {style}" if style != "Regular" else FAMILY
    postscript = f"NotoSansSCSubset-{style}"
    for record in list(name.names):
        if record.nameID in (16, 17):
            name.removeNames(nameID=record.nameID)
    for name_id, value in (
        (1, FAMILY if style in ("Regular", "Bold") else f"{FAMILY} {style}"),
        (2, style),
        (3, f"{postscript};ClusterBuy subset of Noto Sans CJK SC 2.004"),
        (4, full),
        (6, postscript),
    ):
        name.setName(value, name_id, 3, 1, 0x409)
        name.setName(value, name_id, 1, 0, 0)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames[0] = postscript
        top = cff.topDictIndex[0]
        top.FullName = full
        top.FamilyName = FAMILY


def build(style: str, out_dir: Path) -> Path:
    font = load_sc_face(SOURCES[style])
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = False
    options.hinting = True
    options.desubroutinize = False
    options.drop_tables += ["VORG", "vhea", "vmtx"]  # no vertical writing in reports
    subsetter = subset.Subsetter(options)
    cmap = font.getBestCmap()
    unicodes = sorted(cp for cp in wanted_codepoints() if cp in cmap)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    rename(font, style)
    # Deterministic output: fixed modification time taken from the source 'head'.
    font["head"].modified = font["head"].created
    font.recalcTimestamp = False
    out = out_dir / f"NotoSansSC-Subset-{style}.otf"
    font.save(str(out), reorderTables=True)
    print(f"{out.name}: {len(unicodes)} characters, {out.stat().st_size / 1e6:.2f} MB")
    return out


def write_licence(out_dir: Path) -> Path:
    """Copy the SIL OFL 1.1 text out of Debian's machine-readable copyright file."""
    text = DEBIAN_COPYRIGHT.read_text(encoding="utf-8")
    match = re.search(r"^License: SIL-1\.1\n((?: .*\n)+)", text, re.M)
    if not match:
        raise SystemExit("SIL-1.1 licence text not found in Debian copyright file")
    lines = []
    for line in match.group(1).splitlines():
        line = line[1:] if line.startswith(" ") else line
        lines.append("" if line == "." else line)
    body = "\n".join(lines).strip("\n")
    header = (
        "Copyright 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name "
        "'Source'.\nNoto is a trademark of Google Inc.\n\n"
        "This Font Software is licensed under the SIL Open Font License, Version 1.1.\n"
        "This license is copied below, and is also available with a FAQ at:\n"
        "https://openfontlicense.org\n\n"
    )
    out = out_dir / "OFL.txt"
    out.write_text(header + body + "\n", encoding="utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument(
        "--styles", nargs="+", default=list(SOURCES), choices=list(SOURCES)
    )
    args = parser.parse_args()
    for style in args.styles:
        build(style, args.out)
    write_licence(args.out)


if __name__ == "__main__":
    main()
