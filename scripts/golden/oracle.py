"""The oracle pool: ``jobs`` long-lived ``triton_oracle.py --serve`` processes fed JSON requests by threads.

Each request runs in a forked child of its server, so a Triton abort costs one answer, never the server."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORACLE = os.path.join(ROOT, "scripts", "triton_oracle.py")
ORACLE_PYTHON = os.environ.get("ORACLE_PYTHON", "/opt/oracle/venv/bin/python")


class OraclePool:
    def __init__(self, n):
        self.procs = []
        for _ in range(n):
            log = tempfile.TemporaryFile()
            p = subprocess.Popen([ORACLE_PYTHON, ORACLE, "--serve"], cwd=ROOT, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1)
            p.log = log
            self.procs.append(p)

    def run_all(self, requests):
        """Answers in request order (deterministic whatever the scheduling)."""
        results = [None] * len(requests)
        todo = queue.Queue()
        for i in range(len(requests)):
            todo.put(i)

        def worker(p):
            while True:
                try:
                    i = todo.get_nowait()
                except queue.Empty:
                    return
                p.stdin.write(json.dumps(requests[i]) + "\n")
                p.stdin.flush()
                line = p.stdout.readline()
                if not line:
                    p.log.seek(0)
                    sys.stderr.write(p.log.read().decode("utf-8", "replace")[-4000:])
                    raise RuntimeError("oracle worker died")
                results[i] = json.loads(line)

        threads = [threading.Thread(target=worker, args=(p,)) for p in self.procs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if any(r is None for r in results):
            raise RuntimeError("oracle failed on some requests")
        return results

    def close(self):
        for p in self.procs:
            p.stdin.close()
            p.wait()
