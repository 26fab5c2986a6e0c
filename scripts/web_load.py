#!/usr/bin/env python3
"""A bounded load test of `dalkon serve` (docs/web.md, "Load test").

Starts `target/release/dalkon serve --port 0` on loopback, then CLIENTS
concurrent clients ask `/api/dakon/best` on 7x7 game positions (from
crates/dakon/benches/best_7x7.txt) for SECONDS seconds. It fails (exit 1)
when any answer is neither 200 nor the documented 503 (busy), when a
connection fails, when a 200 is not the CLI's JSON of a best move, when
the server's resident memory (VmRSS of /proc/PID/status, sampled) goes
over --max-rss-mib, or when the server does not answer 200 afterwards.
Prints a summary: requests, 200s, 503s, latency percentiles, peak RSS.

Python 3 standard library only:

    python3 scripts/web_load.py [--clients 50] [--seconds 30]
"""

import argparse
import http.client
import json
import os
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POSITIONS = os.path.join(ROOT, "crates", "dakon", "benches", "best_7x7.txt")


def positions(path):
    """The positions of the benchmark file (first column, no comments)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line.split("\t")[0])
    return out


def rss_kib(pid):
    """VmRSS of the process, in KiB (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def ask(host, port, position, timeout):
    """POST one best request; (status, body, seconds)."""
    started = time.monotonic()
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        body = json.dumps({"position": position})
        conn.request(
            "POST",
            "/api/dakon/best",
            body=body,
            headers={"Content-Type": "application/json"},
        )
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, data, time.monotonic() - started
    finally:
        conn.close()


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, int(round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=50, help="concurrent clients (50)")
    ap.add_argument("--seconds", type=float, default=30.0, help="duration (30 s)")
    ap.add_argument(
        "--binary",
        default=os.path.join(ROOT, "target", "release", "dalkon"),
        help="the dalkon binary (target/release/dalkon)",
    )
    ap.add_argument(
        "--max-rss-mib", type=float, default=1024.0, help="memory bound (1024 MiB)"
    )
    ap.add_argument(
        "--retry-delay",
        type=float,
        default=0.05,
        help="seconds a client waits after a 503 before asking again (0.05)",
    )
    args = ap.parse_args()

    pos = positions(POSITIONS)
    server = subprocess.Popen(
        [args.binary, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    failures = []
    try:
        line = server.stdout.readline()
        if "http://" not in line:
            print(f"the server did not start: {line!r}", file=sys.stderr)
            return 1
        addr = line.split("http://", 1)[1].strip().rstrip("/")
        host, port = addr.rsplit(":", 1)
        port = int(port)

        lock = threading.Lock()
        statuses = {}
        latencies = []
        peak = [rss_kib(server.pid)]
        stop = threading.Event()

        def sample():
            while not stop.is_set():
                peak[0] = max(peak[0], rss_kib(server.pid))
                time.sleep(0.1)

        deadline = time.monotonic() + args.seconds

        def client(k):
            i = k
            while time.monotonic() < deadline:
                p = pos[i % len(pos)]
                i += args.clients
                try:
                    status, data, took = ask(host, port, p, timeout=60)
                except (OSError, http.client.HTTPException) as e:
                    with lock:
                        failures.append(f"connection error: {e!r}")
                    continue
                ok = status in (200, 503)
                if status == 200:
                    try:
                        ok = "best_moves" in json.loads(data)
                    except ValueError:
                        ok = False
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                    if status == 200:
                        latencies.append(took)
                    if not ok:
                        failures.append(f"{status}: {data[:200]!r}")
                if status == 503:
                    time.sleep(args.retry_delay)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        threads = [threading.Thread(target=client, args=(k,)) for k in range(args.clients)]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started

        # Afterwards: the server still answers (every search has ended).
        status, data, took = ask(host, port, pos[0], timeout=60)
        stop.set()
        sampler.join()
        peak[0] = max(peak[0], rss_kib(server.pid))
        if status != 200:
            failures.append(f"after the run: {status} {data[:200]!r}")
        if server.poll() is not None:
            failures.append(f"the server exited with {server.returncode}")
        peak_mib = peak[0] / 1024
        if peak_mib > args.max_rss_mib:
            failures.append(f"peak RSS {peak_mib:.0f} MiB > {args.max_rss_mib:.0f} MiB")

        lat = sorted(latencies)
        total = sum(statuses.values())
        print(
            f"{args.clients} clients, {elapsed:.1f} s: {total} requests, "
            f"{statuses.get(200, 0)} 200s, {statuses.get(503, 0)} 503s, "
            f"other {total - statuses.get(200, 0) - statuses.get(503, 0)}, "
            f"connection errors {sum(f.startswith('connection') for f in failures)}"
        )
        print(
            f"200 latency: p50 {percentile(lat, 50):.2f} s, p90 {percentile(lat, 90):.2f} s, "
            f"max {lat[-1] if lat else float('nan'):.2f} s; "
            f"peak RSS {peak_mib:.0f} MiB (bound {args.max_rss_mib:.0f}); "
            f"afterwards {status} in {took:.2f} s"
        )
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    if failures:
        print(f"FAILED: {len(failures)} problems, e.g.", file=sys.stderr)
        for f in failures[:10]:
            print(f"  {f}", file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
