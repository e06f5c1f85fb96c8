#!/usr/bin/env python3
"""Screenshots of the splitweb page (expanded, then collapsed) for docs/images.

Usage: doc_screenshots_web.py BIN_DIR OUT_DIR. Starts its own splitd and splitweb.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
import test_splitweb as web  # noqa: E402  (its helpers: start_splitd, start_splitweb, new_driver, ...)

bin_dir, out = sys.argv[1], sys.argv[2]
web.BIN = bin_dir
splitd = web.start_splitd()
splitweb, base = web.start_splitweb()
driver = web.new_driver()
try:
    config = {"style": "tripleColumn", "roots": {"primary": "mailboxes", "supplementary": "inbox", "secondary": "message"}}
    driver.get(base + "&scene=docs&device=compact-below-1000&config=" + urllib.parse.quote(json.dumps(config)))
    web.SCENE = "docs"
    web.resize_viewport(driver, 1280, 800)
    web.wait(driver, web.settled, "expanded")
    driver.save_screenshot(os.path.join(out, "splitweb-expanded.png"))
    web.resize_viewport(driver, 600, 800)
    web.wait(driver, lambda d: web.settled(d) and web.body(d, "collapsed") == "true", "collapsed")
    driver.save_screenshot(os.path.join(out, "splitweb-collapsed.png"))
finally:
    driver.quit()
    splitweb.terminate()
    splitd.terminate()
    shutil.rmtree(web.WORK, ignore_errors=True)
