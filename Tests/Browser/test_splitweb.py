#!/usr/bin/env python3
"""splitweb end to end in a real headless Chromium (Debian's chromium + chromedriver).

Starts its own splitd (temporary socket and database) and splitweb (--listen 127.0.0.1:0),
opens the printed URL, and checks what a person would: resizing the browser across the
compact/regular boundary collapses and expands the scene (checked over splitd's socket
too), clicking a row is showDetail, two tabs show the same revision, requests without the
token or from another origin are refused, and after splitd is killed and restarted the page
reconnects. Usage: test_splitweb.py BIN_DIR. Prints 'N passed, N failed' last.
"""
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

import browser_support
from browser_support import new_driver, run_tests, wait

BIN = browser_support.BIN
WORK = tempfile.mkdtemp(prefix="splitweb-test-")
SOCKET = os.path.join(WORK, "splitd.sock")
DATABASE = os.path.join(WORK, "splitd.db")
SCENE = "web"
# Rule set of seed 000: compact below 1000 pt, so the boundary is exact.
DEVICE = "compact-below-1000"
CONFIG = {"roots": {"primary": "inbox", "secondary": "detail"}}


def splitd_call(op, **fields):
    """One request on a fresh connection to splitd; the response object."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        s.connect(SOCKET)
        s.sendall((json.dumps({"id": 1, "op": "hello", "protocol": 1, "client": "browser-test"}) + "\n").encode())
        s.sendall((json.dumps(dict({"id": 2, "op": op}, **fields)) + "\n").encode())
        data = b""
        while data.count(b"\n") < 2:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        for line in data.split(b"\n"):
            if line:
                message = json.loads(line)
                if message.get("id") == 2:
                    return message
    raise AssertionError("no answer to " + op)


def start_splitd():
    process = subprocess.Popen([os.path.join(BIN, "splitd"), "--socket", SOCKET, "--database", DATABASE],
                               stdout=subprocess.DEVNULL, stderr=open(os.path.join(WORK, "splitd.log"), "a"))
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            splitd_call("ping")
            return process
        except OSError:
            time.sleep(0.1)
    raise AssertionError("splitd did not start")


def start_splitweb():
    process = subprocess.Popen([os.path.join(BIN, "splitweb"), "--socket", SOCKET, "--listen", "127.0.0.1:0"],
                               stdout=subprocess.PIPE, stderr=open(os.path.join(WORK, "splitweb.log"), "a"), text=True)
    url = process.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:") and "token=" in url, "first line is the URL: " + url
    return process, url


def body(driver, name):
    return driver.execute_script("return document.body.dataset[arguments[0]] || ''", name)


def viewport(driver):
    return driver.execute_script("return [window.innerWidth, window.innerHeight]")


def resize_viewport(driver, width, height):
    """Sets the window so that the viewport is width x height CSS pixels."""
    driver.set_window_size(width, height)
    inner = viewport(driver)
    outer = driver.get_window_size()
    driver.set_window_size(width + outer["width"] - inner[0], height + outer["height"] - inner[1])
    wait(driver, lambda d: viewport(d) == [width, height], "viewport %dx%d" % (width, height))


def scene():
    answer = splitd_call("scene.get", scene=SCENE)
    assert answer["ok"], answer
    return answer


def settled(driver):
    """The page shows the scene's current revision and size (nothing in flight)."""
    current = scene()
    width, height = viewport(driver)
    size = current["layout"]["size"]
    if body(driver, "revision") == str(current["revision"]) and [size["width"], size["height"]] == [width, height]:
        return current
    return None


class Context:
    pass


def test_resize_collapses_and_expands(c):
    resize_viewport(c.driver, 1200, 900)
    current = wait(c.driver, settled, "expanded at 1200x900")
    assert current["layout"]["collapsed"] is False and body(c.driver, "collapsed") == "false"
    resize_viewport(c.driver, 800, 900)
    current = wait(c.driver, settled, "collapsed at 800x900")
    assert current["layout"]["collapsed"] is True and body(c.driver, "collapsed") == "true"
    assert current["layout"]["traits"]["horizontalSizeClass"] == "compact"
    # The picture is the layout: one collapsed column as wide as the window.
    frames = c.driver.find_elements(By.CSS_SELECTOR, "g.column rect.frame")
    assert [f.get_attribute("width") for f in frames] == ["800"], [f.get_attribute("width") for f in frames]
    resize_viewport(c.driver, 1100, 900)
    current = wait(c.driver, settled, "expanded again at 1100x900")
    assert current["layout"]["collapsed"] is False and body(c.driver, "collapsed") == "false"


def test_click_row_is_show_detail(c):
    wait(c.driver, settled, "settled")
    before = scene()["revision"]
    row = c.driver.find_element(By.CSS_SELECTOR, "g.column.primary g.row")
    intent = json.loads(row.get_attribute("data-intent"))
    assert intent == {"kind": "showDetail", "vc": "inbox-1"}, intent
    ActionChains(c.driver).move_to_element(row).click().perform()
    current = wait(c.driver, lambda d: settled(d) if scene()["revision"] > before else None, "showDetail's revision")
    secondary = [col for col in current["layout"]["columns"] if col["column"] == "secondary"][0]
    assert secondary["stack"][-1] == "inbox-1", secondary
    top = c.driver.find_element(By.CSS_SELECTOR, "g.column.secondary g.stack-entry.top")
    assert top.get_attribute("data-vc") == "inbox-1"


def test_two_tabs_same_revision(c):
    first = c.driver.current_window_handle
    c.driver.switch_to.new_window("tab")
    c.driver.get(c.url)
    wait(c.driver, lambda d: body(d, "revision") != "", "second tab's first layout")
    second = c.driver.current_window_handle
    revisions = {}
    for handle in [second, first]:
        c.driver.switch_to.window(handle)
        revisions[handle] = wait(c.driver, lambda d: body(d, "revision") if body(d, "revision") == str(scene()["revision"]) else None,
                                 "tab on the current revision")
    assert revisions[first] == revisions[second], revisions
    # A change made in one tab reaches the other.
    c.driver.switch_to.window(second)
    c.driver.find_element(By.TAG_NAME, "body").send_keys("d")
    target = wait(c.driver, lambda d: scene()["revision"] if scene()["revision"] > int(revisions[first]) else None, "display-mode button's revision")
    c.driver.switch_to.window(first)
    wait(c.driver, lambda d: body(d, "revision") == str(target), "first tab shows revision %d" % target)
    c.driver.switch_to.window(second)
    c.driver.close()
    c.driver.switch_to.window(first)


def http_status(path, headers):
    parsed = urllib.parse.urlparse(c_url_base)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=5)
    connection.request("GET", path, headers=headers)
    status = connection.getresponse().status
    connection.close()
    return status


def test_refusals(c):
    parsed = urllib.parse.urlparse(c.url)
    token = urllib.parse.parse_qs(parsed.query)["token"][0]
    host = "%s:%d" % (parsed.hostname, parsed.port)
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Host": host}
    assert http_status("/?token=" + token, {"Host": host}) == 200
    assert http_status("/", {"Host": host}) == 403, "page without token"
    assert http_status("/?token=wrong", {"Host": host}) == 403, "page with a wrong token"
    assert http_status("/?token=" + token, {"Host": "evil.example:80"}) == 403, "another Host"
    # A refused WebSocket upgrade is answered 400 by the upgrade handler (the refusal is
    # splitweb's: the same request from the page's own origin gets 101 below).
    refused = (400, 403)
    assert http_status("/ws?token=" + token, dict(upgrade, Origin="http://evil.example")) in refused, "other origin"
    assert http_status("/ws?token=" + token, upgrade) in refused, "WebSocket without Origin"
    assert http_status("/ws", dict(upgrade, Origin="http://" + host)) in refused, "WebSocket without token"
    assert http_status("/ws?token=" + token, dict(upgrade, Origin="http://" + host, Host="evil.example:80")) in refused, "WebSocket to another Host"
    assert http_status("/ws?token=" + token, dict(upgrade, Origin="http://" + host)) == 101, "own page's WebSocket"


def test_reconnects_after_splitd_restart(c):
    wait(c.driver, settled, "settled before the restart")
    c.splitd.send_signal(signal.SIGKILL)
    c.splitd.wait()
    wait(c.driver, lambda d: body(d, "connected") == "false", "page sees splitd gone")
    c.splitd = start_splitd()
    wait(c.driver, lambda d: body(d, "connected") == "true", "page reconnected")
    current = wait(c.driver, settled, "page on the restarted daemon's revision")
    # Still live: a resize after the restart collapses the scene.
    resize_viewport(c.driver, 700, 900)
    current = wait(c.driver, lambda d: settled(d) if scene()["layout"]["collapsed"] else None, "collapse after restart")
    assert body(c.driver, "collapsed") == "true"


def main():
    global c_url_base
    c = Context()
    c.splitd = start_splitd()
    c.splitweb, base = start_splitweb()
    c_url_base = base
    c.url = base + "&scene=" + SCENE + "&device=" + DEVICE + "&config=" + urllib.parse.quote(json.dumps(CONFIG))
    c.driver = new_driver()
    try:
        c.driver.get(c.url)
        wait(c.driver, lambda d: body(d, "revision") != "", "first layout")
        status = run_tests(
            "browser",
            [test_resize_collapses_and_expands, test_click_row_is_show_detail, test_two_tabs_same_revision,
             test_refusals, test_reconnects_after_splitd_restart],
            c, WORK, on_failure=lambda test: c.driver.save_screenshot(os.path.join(WORK, test.__name__ + ".png")))
    finally:
        c.driver.quit()
        c.splitweb.terminate()
        c.splitd.terminate()
        c.splitweb.wait()
        c.splitd.wait()
    sys.exit(status)

if __name__ == "__main__":
    main()
