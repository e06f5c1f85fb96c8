#!/usr/bin/env python3
"""`splitctl simulate --report` in a real headless Chromium.

Runs the shipped scenarios (embedded daemon) with --check and --report, opens the page from
a file: URL and checks that every step has its picture and that the page loaded nothing
else; then alters one golden layout in a copy of the scenarios and checks that the step
shows up changed, golden and new pictures side by side, with the changed field listed.
Usage: test_report.py BIN_DIR. Prints 'N passed, N failed' last.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from selenium.webdriver.common.by import By

from browser_support import BIN, new_driver, run_tests

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORK = tempfile.mkdtemp(prefix="report-test-")


def simulate(scenarios, report, expect_exit):
    run = subprocess.run([os.path.join(BIN, "splitctl"), "--json", "simulate", "--embedded", "--check", scenarios, "--report", report],
                         capture_output=True, text=True)
    assert run.returncode == expect_exit, "exit %d: %s %s" % (run.returncode, run.stdout[-2000:], run.stderr[-2000:])
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_shipped_scenarios(driver):
    report = os.path.join(WORK, "report.html")
    summary = simulate(os.path.join(ROOT, "Config", "scenarios"), report, 0)
    driver.get("file://" + report)
    figures = driver.find_elements(By.CSS_SELECTOR, "figure.step")
    # One figure per record: every request step, and every snapshot session.
    assert len(figures) == summary["steps"] + summary["snapshots"], (len(figures), summary)
    # Every step that is not an error has a picture; sessions are strips.
    pictures = driver.execute_script("return document.querySelectorAll('figure.step > svg').length")
    errors = driver.execute_script("return document.querySelectorAll('figure.step > p.error').length")
    assert pictures + errors == len(figures) and pictures > 0, (pictures, errors, len(figures))
    sessions = driver.execute_script("return document.querySelectorAll('figure.session > svg.session').length")
    assert sessions == summary["snapshots"], (sessions, summary["snapshots"])
    # The pictures are drawn: a column frame has a real size on screen.
    box = driver.execute_script("const r = document.querySelector('figure.step rect.frame').getBoundingClientRect(); return [r.width, r.height];")
    assert box[0] > 5 and box[1] > 5, box
    assert driver.execute_script("return performance.getEntriesByType('resource').length") == 0, "the page loaded something"
    assert driver.execute_script("return document.querySelectorAll('figure.changed').length") == 0
    driver.save_screenshot(os.path.join(WORK, "report.png"))


def test_altered_golden_side_by_side(driver):
    scenarios = os.path.join(WORK, "scenarios")
    shutil.copytree(os.path.join(ROOT, "Config", "scenarios"), scenarios)
    golden_path = os.path.join(scenarios, "golden", "wechat-ipad.json")
    with open(golden_path) as f:
        golden = json.load(f)
    step = golden["runs"][0]["steps"][0]
    step["layout"]["columns"][0]["width"] = step["layout"]["columns"][0]["width"] + 17
    with open(golden_path, "w") as f:
        json.dump(golden, f, indent=2)
    report = os.path.join(WORK, "changed.html")
    simulate(scenarios, report, 1)
    driver.get("file://" + report)
    changed = driver.find_elements(By.CSS_SELECTOR, "figure.changed")
    assert len(changed) == 1, len(changed)
    assert driver.find_element(By.CSS_SELECTOR, ".changed-count").get_attribute("data-changed") == "1"
    figure = changed[0]
    old = figure.find_element(By.CSS_SELECTOR, ".golden svg")
    new = figure.find_element(By.CSS_SELECTOR, ".new svg")
    # Side by side: same row, golden on the left.
    assert abs(old.rect["y"] - new.rect["y"]) < 2 and old.rect["x"] < new.rect["x"], (old.rect, new.rect)
    widths = [e.get_attribute("width") for e in figure.find_elements(By.CSS_SELECTOR, ".golden rect.frame")]
    new_widths = [e.get_attribute("width") for e in figure.find_elements(By.CSS_SELECTOR, ".new rect.frame")]
    assert widths[0] != new_widths[0] and float(widths[0]) == float(new_widths[0]) + 17, (widths, new_widths)
    fields = [row.text for row in figure.find_elements(By.CSS_SELECTOR, "table.fields td:first-child")]
    assert any("columns" in field and "width" in field for field in fields), fields
    driver.execute_script("arguments[0].scrollIntoView()", figure)
    driver.save_screenshot(os.path.join(WORK, "changed.png"))


def main():
    driver = new_driver(1400, 1000)
    try:
        status = run_tests("report", [test_shipped_scenarios, test_altered_golden_side_by_side], driver, WORK)
    finally:
        driver.quit()
    sys.exit(status)


if __name__ == "__main__":
    main()
