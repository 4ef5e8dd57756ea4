"""Makes the raw screenshots of `npm run docs:pictures` small enough for the repository.

Each picture is reduced to a palette of at most 256 colours (the UI has few), and the grid's
steps are set side by side, two by two and captioned, into one picture. Usage:
    reduce.py RAW_DIR OUT_DIR
"""

import json
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

# The largest picture the guide may hold, in bytes; the script fails past it.
MOST_BYTES = 300_000


def reduced(image: Image.Image) -> Image.Image:
    rgb = image.convert("RGB")
    return rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def save(image: Image.Image, path: Path) -> None:
    reduced(image).save(path, optimize=True)
    size = path.stat().st_size
    print(f"{path.name}: {image.width}x{image.height}, {size // 1024} KB")
    if size > MOST_BYTES:
        raise SystemExit(f"{path.name} is {size} bytes, over {MOST_BYTES}: crop or scale it down")


def steps_picture(raw: Path, steps: list[dict[str, str]]) -> Image.Image:
    """The steps two by two, each under its caption, scaled to one common width."""
    frames = [Image.open(raw / step["file"]).convert("RGB") for step in steps]
    width = min(frame.width for frame in frames)
    frames = [frame.resize((width, round(frame.height * width / frame.width))) for frame in frames]
    height = max(frame.height for frame in frames)
    font = ImageFont.load_default(size=22)
    caption, gap = 40, 16
    columns = 2
    rows = (len(frames) + columns - 1) // columns
    sheet = Image.new(
        "RGB",
        (columns * width + (columns + 1) * gap, rows * (caption + height) + (rows + 1) * gap),
        "white",
    )
    draw = ImageDraw.Draw(sheet)
    for n, (frame, step) in enumerate(zip(frames, steps)):
        x = gap + (n % columns) * (width + gap)
        y = gap + (n // columns) * (caption + height + gap)
        draw.text((x + 4, y + 6), step["caption"], fill="black", font=font)
        sheet.paste(frame, (x, y + caption))
        draw.rectangle((x - 1, y + caption - 1, x + width, y + caption + frame.height), outline="#9e9e9e")
    return sheet


def main() -> None:
    raw, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    plan = json.loads((raw / "plan.json").read_text(encoding="utf-8"))
    for name in plan["pictures"]:
        save(Image.open(raw / name), out / name)
    for name, steps in plan["sheets"].items():
        save(steps_picture(raw, steps), out / name)


if __name__ == "__main__":
    main()
