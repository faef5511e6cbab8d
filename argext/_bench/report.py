"""The bench's table and its progress line."""

import shutil
import sys
import time

_COLUMNS = (("case", "<14"), ("dtype", "<9"), ("shape", ">17"), ("axis", ">7"), ("", "2"),
            ("contender", "<14"), ("time", ">13"), ("GB/s", ">8"), ("of probe", ">9"), ("vs base", ">11"))
_KEY = 5  # the columns before "contender" name the case


def _line(cells):
    return "".join(f"{c:{fmt}}" for c, (_, fmt) in zip(cells, _COLUMNS)).rstrip()


HEADER = _line([name for name, _ in _COLUMNS])

LEGEND = """\
time: per call, the median of the alternating runs; GB/s: input bytes over time
of probe: GB/s over the read-bandwidth probe at the input's size and the contender's thread count
vs base: the base's time (NumPy; dask.array in the dask case) over the contender's, above 1 is
faster; * the fastest; - a contender that lacks the dtype, layout or option (why in brackets)"""


def size_label(size):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift:
            return f"{size / (1 << shift):.3g} {unit}"
    return f"{size} B"


def _time(seconds, per_call):
    if per_call:
        return f"{seconds * 1e6:.2f} us/call"
    return f"{seconds * 1e3:.2f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.1f} us"


def format_row(row):
    """The row's lines: one per contender, the timed ones first."""
    shape = "x".join(map(str, row["shape"]))
    axis = row["axis"] if row["axis"] is not None else "all"
    key = [row["case"], row["dtype"], shape, str(axis).replace(" ", ""), ""]
    seconds, per_call = row["seconds"], row.get("per_call", False)
    fastest = min(seconds, key=seconds.get) if len(seconds) > 1 else None
    lines = []
    for name, t in seconds.items():
        gbs = "-" if per_call else f"{row['gb_per_s'][name]:.1f}"
        probe = row.get("fraction_of_probe", {}).get(name)
        probe = "-" if probe is None else f"{probe:.0%}"
        ratio = f"{row['ratio'][name]:.2f}x" + ("*" if name == fastest else " ")
        lines.append(_line(key + [name, _time(t, per_call), gbs, probe, ratio]))
        key = [""] * _KEY
    for name, reason in row.get("blank", {}).items():
        lines.append(_line(key + [name, "-"]).rstrip() + f"  ({reason})")
    if row.get("lacking"):
        lines.append(_line(key + [f"no {row['op']} in {', '.join(row['lacking'])}"]))
    return "\n".join(lines)


class Progress:
    """One line on a terminal's stderr, redrawn in place, saying how far a
    run is; it appears once the run has taken `delay` seconds, and not at all
    when stderr is not a terminal or `enabled` is false."""

    def __init__(self, total, enabled=True, stream=None, delay=3.0, clock=time.monotonic):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and self.stream.isatty()
        self.total, self.delay, self.clock = total, delay, clock
        self.started = clock()
        self.done, self.label, self.detail = 0, "", ""
        self.shown = False

    def start(self, label):
        """Work on the next item (`label`) begins."""
        self.label, self.detail = label, ""
        self.draw()

    def step(self, detail):
        self.detail = detail
        self.draw()

    def finish(self):
        self.done += 1

    def draw(self):
        elapsed = self.clock() - self.started
        if not self.enabled or elapsed < self.delay:
            return
        text = f"bench [{self.done + 1}/{self.total}] {self.label} {self.detail}  {elapsed:.0f} s"
        width = shutil.get_terminal_size().columns - 1
        self.stream.write("\r" + text[:width] + "\x1b[K")
        self.stream.flush()
        self.shown = True

    def clear(self):
        """Erases the line (before other output)."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False

    def close(self):
        """Erases the line for good: the work is done."""
        self.clear()
        self.enabled = False

    def print(self, text):
        """Prints `text` to stdout above the progress line."""
        self.clear()
        print(text, flush=True)
        self.draw()
