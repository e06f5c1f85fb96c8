"""Small helpers shared by Scripts/crashtest and Scripts/hostile: a blocking protocol-1
client, starting and stopping a real splitd, reading a process's memory."""

import json
import os
import signal
import socket
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class ServerError(Exception):
    """An `ok: false` response."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code


class Client:
    """One connection speaking newline-delimited JSON; answers are matched by id and
    pushes (no id) are skipped."""

    def __init__(self, path, timeout=20.0, name="script"):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.reader = self.sock.makefile("rb")
        self.next_id = 1
        if name is not None:
            self.call("hello", protocol=1, client=name)

    def send(self, op, **params):
        request_id = self.next_id
        self.next_id += 1
        self.sock.sendall((json.dumps({"id": request_id, "op": op, **params}) + "\n").encode())
        return request_id

    def receive(self, request_id):
        while True:
            line = self.reader.readline()
            if not line:
                raise ConnectionError("splitd closed the connection")
            message = json.loads(line)
            if message.get("id") == request_id:
                return message

    def call(self, op, **params):
        """The response's result; raises ServerError for `ok: false`."""
        response = self.receive(self.send(op, **params))
        if not response.get("ok"):
            error = response.get("error", {})
            raise ServerError(error.get("code"), error.get("message"))
        return response

    def close(self):
        try:
            self.reader.close()
            self.sock.close()
        except OSError:
            pass


def default_bin_dir():
    """$SPLITD_BIN_DIR, else the lead's debug build."""
    return os.environ.get("SPLITD_BIN_DIR") or os.path.join(ROOT, ".build", "debug")


class Daemon:
    """The real splitd on `directory`/s.sock and `directory`/d.db, logging to splitd.log."""

    def __init__(self, bin_dir, directory, durability="full", extra=()):
        self.binary = os.path.join(bin_dir, "splitd")
        self.directory = directory
        self.socket = os.path.join(directory, "s.sock")
        self.database = os.path.join(directory, "d.db")
        self.log_path = os.path.join(directory, "splitd.log")
        self.arguments = ["--socket", self.socket, "--database", self.database, "--durability", durability, *extra]
        self.process = None

    def start(self, timeout=30.0):
        with open(self.log_path, "ab") as log:
            log.write(f"--- start: splitd {' '.join(self.arguments)}\n".encode())
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen([self.binary, *self.arguments], stdin=subprocess.DEVNULL,
                                        stdout=log, stderr=log)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"splitd exited during start-up ({self.process.returncode})\n{self.log_tail()}")
            try:
                probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                probe.connect(self.socket)
                probe.close()
                return
            except OSError:
                time.sleep(0.02)
        self.kill()
        raise RuntimeError(f"splitd did not accept connections within {timeout}s\n{self.log_tail()}")

    @property
    def pid(self):
        return self.process.pid

    def kill(self):
        """SIGKILL and reap: nothing that is not already durable survives."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def terminate(self, timeout=30.0):
        """SIGTERM; the exit status (None if it had to be killed)."""
        if not self.process:
            return None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def client(self, name="script", timeout=20.0):
        return Client(self.socket, timeout=timeout, name=name)

    def log_tail(self, lines=40):
        try:
            with open(self.log_path, "rb") as log:
                return b"".join(log.readlines()[-lines:]).decode(errors="replace")
        except OSError:
            return ""


def rss_kib(pid):
    """VmRSS of `pid` in KiB (from /proc)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def filesystem_type(path):
    return subprocess.run(["stat", "-f", "-c", "%T", path], capture_output=True, text=True).stdout.strip()
