"""The real `coexist-ai web` server in a subprocess, for the web tests.

`WebServer` starts it on a free port (--port 0) in a folder of the test's,
reads the address it prints and stops it (Ctrl-C, as a person would) at the
end. `get` and `post` speak its JSON API with the standard library only.
"""
import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request

from cli_process import child_setup, cli_argv, cli_env


def first_line(pipe):
    """The first line, read byte by byte from the pipe's descriptor: a
    buffered readline can take the lines after it too, and `communicate`,
    which reads the descriptor, would never see them (a level's Elo line went
    missing so)."""
    data = b""
    while not data.endswith(b"\n"):
        byte = os.read(pipe.fileno(), 1)
        if not byte:
            break
        data += byte
    return data.decode()


class WebServer:
    def __init__(self, *args, cwd):
        self.proc = subprocess.Popen(cli_argv("web", "--port", "0", *args), cwd=cwd,
                                     env=cli_env(), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     preexec_fn=child_setup(None))
        self.first_line = first_line(self.proc.stdout)
        if not self.first_line.startswith("Coexist web game: http://"):
            self.proc.kill()
            raise AssertionError(f"no address printed: {self.first_line!r} "
                                 f"{self.proc.stderr.read()}")
        self.url = self.first_line.split()[3]

    def request(self, path, body=None, method=None):
        """(status, JSON answer, raw bytes) of one request."""
        data = None if body is None else (body if isinstance(body, bytes)
                                          else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path.lstrip("/"), data=data,
                                     method=method or ("POST" if data is not None else "GET"),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as answer:
                raw = answer.read()
                return answer.status, json.loads(raw), raw
        except urllib.error.HTTPError as e:
            raw = e.read()
            return e.code, json.loads(raw), raw

    def get(self, path):
        return self.request(path)[1]

    def post(self, path, body=None):
        return self.request(path, body if body is not None else {})[1]

    def wait_for(self, predicate, seconds=120):
        """The snapshot once predicate(snapshot) holds (a guard, not a measure)."""
        deadline = time.monotonic() + seconds
        snap = self.get("/api/game")
        while not predicate(snap):
            assert time.monotonic() < deadline, f"not reached in {seconds} s: {snap['board']}"
            snap = self.get(f"/api/game?after={snap['version']}")
        return snap

    def stop(self):
        """Ctrl-C; returns (exit status, the rest of stdout, stderr)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            out, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
        return self.proc.returncode, out, err

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
