"""--plot FILE: GB/s against input size, per contender, beside the read-bandwidth
probe; one panel per case and dtype. matplotlib (the `plot` extra) is imported
only here, and only when a plot is asked for."""

import math

from .report import size_label

# One colour per contender in every panel (matplotlib's tab10), in table order.
COLOURS = {"argext": "tab:red", "argext-native": "tab:pink", "numpy": "tab:blue",
           "onnxruntime": "tab:gray", "torch": "tab:orange", "jax": "tab:green",
           "numkong": "tab:purple", "bottleneck": "tab:brown", "numbagg": "tab:olive",
           "dask": "tab:cyan"}
FORMATS = ("png", "svg")


def require():
    """matplotlib, or an ImportError that says how to get it."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError("--plot needs matplotlib: pip install 'argext[plot]'") from None
    return matplotlib


def _panels(rows):
    """{(case, dtype, shape or None): rows}: sized cases share a panel over
    their sizes; fixed shapes get one each."""
    panels = {}
    for row in rows:
        if row.get("per_call") or "gb_per_s" not in row:
            continue
        shape = None if row.get("sized") else tuple(row["shape"])
        panels.setdefault((row["case"], row["dtype"], shape), []).append(row)
    return panels


def draw(doc, path):
    """Writes the figure of a run (the bench's JSON document) to `path`."""
    from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state

    fmt = path.rsplit(".", 1)[-1].lower()
    panels = _panels(doc["results"])
    probes = {int(t): sorted((int(b), g) for b, g in sizes.items()) for t, sizes in doc["probes"].items()}
    all_sizes = [b for sizes in probes.values() for b, _ in sizes] + \
        [r["bytes"] for rs in panels.values() for r in rs]
    lo, hi = min(all_sizes) / 1.6, max(all_sizes) * 1.6
    # Powers of two, at most six of them, across the sizes drawn.
    powers = range(math.ceil(math.log2(lo)), math.floor(math.log2(hi)) + 1)
    ticks = [1 << p for p in powers[::max(1, math.ceil(len(powers) / 6))]]
    cols = min(4, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig = Figure(figsize=(4.2 * cols, 3.3 * rows + 1.2), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    seen = {}
    for ax, ((case, dtype, shape), rs) in zip(axes, panels.items()):
        for threads, sizes in probes.items():
            (line,) = ax.plot([b for b, _ in sizes], [g for _, g in sizes], color="black",
                              linestyle="--" if threads == 1 else ":", linewidth=1.2)
            seen[f"read-bandwidth probe, {threads} thread{'s' if threads > 1 else ''}"] = line
        rs = sorted(rs, key=lambda r: r["bytes"])
        for name in rs[0]["seconds"]:
            points = [(r["bytes"], r["gb_per_s"][name]) for r in rs if name in r["gb_per_s"]]
            (line,) = ax.plot(*zip(*points), marker="o", markersize=4, color=COLOURS.get(name),
                              linewidth=2.0 if name == "argext" else 1.2)
            seen.setdefault(name, line)
        ax.set_xscale("log", base=2)
        ax.set_xlim(lo, hi)
        ax.set_ylim(bottom=0)
        ax.set_xticks(ticks)
        ax.set_xticklabels([size_label(b) for b in ticks], fontsize=7)
        title = f"{case} {dtype}" + (f" {'x'.join(map(str, shape))}" if shape else "")
        ax.set_title(title, fontsize=9)
        ax.set_ylabel("GB/s", fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    m = doc["machine"]
    fig.suptitle(f"argext {m['argext']} and its peers on {m['cpu']}: {doc['threads']} thread"
                 f"{'s' if doc['threads'] > 1 else ''} pinned to CPU {doc['cpus']}, ISA {m['isa']}, "
                 f"medians of {doc['repeats']} alternating runs", fontsize=10)
    fig.legend(list(seen.values()), list(seen), loc="outside lower center", ncols=min(6, len(seen)),
               fontsize=8, frameon=False)
    fig.savefig(path, format=fmt, dpi=110)
