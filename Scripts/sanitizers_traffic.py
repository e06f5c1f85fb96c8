#!/usr/bin/env python3
"""One daemon session under a given volume of mixed traffic, for leak checks (used by
Scripts/sanitizers): starts splitd from --bin on a fresh database, runs --rounds rounds of
traffic (scenes created, changed, attached, snapshotted, deleted; clients connecting and
leaving; refused lines of every kind), stops it with SIGTERM and prints its exit status.
The leak report itself is the sanitizer's or valgrind's (stderr of splitd, in its log).

Usage: sanitizers_traffic.py --bin DIR --rounds N [--wrapper 'valgrind ...'] [--dir PARENT]
"""

import argparse
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crashtest_wire import Client, ServerError  # noqa: E402

MAIL = {"roots": {"primary": "inbox", "secondary": "detail"}, "tabs": [{"root": "a"}, {"root": "b"}]}


def one_round(path, number):
    client = Client(path, name=f"traffic-{number}")
    viewer = Client(path, name=f"viewer-{number}")
    scene = f"s{number}"
    client.call("scene.create", scene=scene, device="ipad-pro-12.9", config=MAIL)
    viewer.call("scene.attach", scene=scene, role="viewer")
    for step in range(8):
        client.call("intent", scene=scene, intent={"kind": "push", "column": "primary", "vc": f"v{step}"})
    client.call("resize", scene=scene, width=375, height=1024)
    client.call("intent", scene=scene, intent={"kind": "selectTab", "index": 1})
    client.call("resize", scene=scene, width=1366, height=1024)
    client.call("intent", scene=scene, intent={"kind": "present", "vc": "sheet", "style": "formSheet"})
    client.call("snapshot", scene=scene, preset="appSwitcher")
    client.call("snapshot.list", scene=scene)
    client.call("scene.get", scene=scene)
    client.call("scene.list")
    for bad in ("not json", "{}", '{"id":1,"op":"nope"}', '{"id":2,"op":"intent","scene":"%s","intent":{"kind":"pop","column":"primary"},"baseRevision":1}' % scene):
        client.sock.sendall((bad + "\n").encode())
    try:
        client.call("intent", scene=scene, intent={"kind": "popToRoot", "column": "nope"})
    except ServerError:
        pass
    viewer.call("scene.detach", scene=scene)
    viewer.close()
    if number % 2:
        client.call("scene.delete", scene=scene)
    client.close()
    # A line past the limit: refused and closed.
    oversized = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    oversized.settimeout(20)
    oversized.connect(path)
    try:
        oversized.sendall(b'{"id":1,"op":"ping","x":"' + b"x" * 70000 + b'"}\n')
        while oversized.recv(65536):
            pass
    except OSError:
        pass
    oversized.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--wrapper", default="", help="command prefix, e.g. valgrind options")
    parser.add_argument("--dir", default="/var/tmp")
    parser.add_argument("--log", required=True, help="where splitd's stdout+stderr go")
    args = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="splitd-leaks-", dir=args.dir)
    path = os.path.join(directory, "s.sock")
    command = shlex.split(args.wrapper) + [os.path.join(args.bin, "splitd"), "--socket", path,
                                            "--database", os.path.join(directory, "d.db")]
    with open(args.log, "wb") as log:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    deadline = time.monotonic() + 120
    while True:
        try:
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            probe.connect(path)
            probe.close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                print(f"splitd did not start (status {process.poll()})", file=sys.stderr)
                return 2
            time.sleep(0.1)
    began = time.monotonic()
    for number in range(args.rounds):
        one_round(path, number)
    elapsed = time.monotonic() - began
    process.send_signal(15)
    status = process.wait(timeout=300)
    print(json.dumps({"rounds": args.rounds, "seconds": round(elapsed, 1), "status": status}))
    shutil.rmtree(directory, ignore_errors=True)
    # A graceful stop exits 0; anything else (a sanitizer's exit code, a crash) fails the run.
    if status != 0:
        print(f"splitd exited with status {status} after SIGTERM", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
