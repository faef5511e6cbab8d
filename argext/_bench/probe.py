"""Read bandwidth of this CPU, for one thread and for all the bench's threads.

The probe is NumPy's streaming integer reductions (add and bitwise-or over
uint64: SIMD loads and one operation per vector, bound by memory) over as many
bytes as the input it is compared with, so an input in cache is compared with
a probe in the same cache. A small input is read again and again in one call
(rows of a view with a zero stride), so that Python's per-call cost does not
hide the cache's bandwidth. With T threads, T threads each reduce a 1/T slice
at once (NumPy releases the GIL in its loops), between two barriers.
"""

import statistics
import threading
import time

import numpy as np
from numpy.lib.stride_tricks import as_strided

# Bytes a timed run reads at least: smaller inputs are read repeatedly (from
# cache) per run, so that a run is not timer noise.
RUN_BYTES = 64 << 20


def calls_per_run(nbytes, run_bytes=RUN_BYTES):
    return max(1, run_bytes // max(1, nbytes))


def _passes(x, passes):
    """x read `passes` times: the rows of a view with a zero row stride."""
    return as_strided(x, (passes, x.size), (0, x.itemsize), writeable=False)


def _bandwidth_one(x, passes, repeats):
    """Bytes/s of the faster of the two reductions, each by its median."""
    v = _passes(x, passes)
    np.add.reduce(x)  # first touch, outside the timing
    medians = []
    for reduce in (np.add.reduce, np.bitwise_or.reduce):
        runs = []
        for _ in range(repeats):
            t = time.perf_counter()
            reduce(v, axis=1)
            runs.append((time.perf_counter() - t) / passes)
        medians.append(statistics.median(runs))
    return x.nbytes / min(medians)


def _bandwidth_threads(x, threads, passes, repeats):
    """As _bandwidth_one, with `threads` threads each reading its slice."""
    parts = [_passes(p, passes) for p in np.array_split(x, threads)]
    start, stop = threading.Barrier(threads), threading.Barrier(threads)
    reductions = [np.add.reduce, np.bitwise_or.reduce]
    rounds = [(reduce, r) for reduce in reductions for r in range(repeats)]

    def worker(part):
        for reduce, _ in rounds:
            start.wait()
            reduce(part, axis=1)
            stop.wait()

    helpers = [threading.Thread(target=worker, args=(p,), daemon=True) for p in parts[1:]]
    for h in helpers:
        h.start()
    runs = {reduce: [] for reduce in reductions}
    for reduce, _ in rounds:
        start.wait()
        t = time.perf_counter()
        reduce(parts[0], axis=1)
        stop.wait()
        runs[reduce].append((time.perf_counter() - t) / passes)
    for h in helpers:
        h.join()
    return x.nbytes / min(statistics.median(r) for r in runs.values())


class Probe:
    """Bytes/s by input size and thread count, measured on first use of each
    and kept for the run."""

    def __init__(self, repeats, run_bytes=RUN_BYTES):
        self.repeats, self.run_bytes = repeats, run_bytes
        self.measured = {}  # (threads, nbytes) -> bytes/s

    def __call__(self, nbytes, threads=1):
        # Eight sizes an octave: inputs of about the same size share one probe.
        step = 1 << max(3, nbytes.bit_length() - 4)
        nbytes = max(64 * threads, (nbytes + step // 2) // step * step // (8 * threads) * 8 * threads)
        key = (threads, nbytes)
        if key not in self.measured:
            x = np.random.default_rng(1).integers(0, 2**62, nbytes // 8, dtype=np.uint64)
            passes = calls_per_run(nbytes, self.run_bytes)
            self.measured[key] = (_bandwidth_one(x, passes, self.repeats) if threads == 1 else
                                  _bandwidth_threads(x, threads, passes, self.repeats))
        return self.measured[key]

    def as_json(self):
        """{threads: {bytes: GB/s}}."""
        out = {}
        for (threads, nbytes), b in sorted(self.measured.items()):
            out.setdefault(str(threads), {})[str(nbytes)] = b / 1e9
        return out
