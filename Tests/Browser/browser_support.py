"""What the browser tests share: the driver (Debian's chromium and chromedriver, never a
downloaded one), waiting for a condition, and running a list of tests with a summary.

Imported by test_report.py, test_splitweb.py and Scripts/doc_screenshots_web.py.
"""
import os
import shutil
import sys
import time
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug"


def new_driver(width=1200, height=900):
    """Headless Chromium with a window of width x height."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=%d,%d" % (width, height)]:
        options.add_argument(argument)
    # Debian's chromedriver: Selenium Manager would try to download one.
    return webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                            options=options)


def wait(driver, condition, what, timeout=15):
    """condition(driver)'s first true value, polled; an assertion error after timeout seconds."""
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            last = condition(driver)
            if last:
                return last
        except Exception as error:  # the page may be between two pictures
            last = error
        time.sleep(0.1)
    raise AssertionError("timed out waiting for " + what + " (last: " + repr(last) + ")")


def run_tests(name, tests, argument, work, on_failure=None):
    """Runs each test(argument), printing 'ok' or 'FAILED' and the traceback, then
    'NAME: N passed, N failed'. on_failure(test) runs after a failure (a screenshot). Removes
    work when all passed (unless KEEP is set); answers the exit status."""
    passed = failed = 0
    for test in tests:
        try:
            test(argument)
            passed += 1
            print("ok     " + test.__name__, flush=True)
        except Exception:
            failed += 1
            print("FAILED " + test.__name__, flush=True)
            traceback.print_exc()
            if on_failure:
                try:
                    on_failure(test)
                except Exception:
                    pass
    print("%s: %d passed, %d failed" % (name, passed, failed))
    if failed == 0 and not os.environ.get("KEEP"):
        shutil.rmtree(work, ignore_errors=True)
    else:
        print("files in " + work)
    return 1 if failed else 0
