"""A fold a pane draws again on every event (`keepOpenState`, static/api.js) stays as its
reader left it, even when the redraw comes between the click on its summary and the toggle
event the browser fires a task later."""

from __future__ import annotations

from typing import Any

from tests.browser.audience import Audience
from tests.serverproc import KirokuServer

REDRAW_UNDER_A_CLICK = """async () => {
  const { el, keepOpenState } = await import("/static/api.js");
  const memo = new Map();
  const draw = () => keepOpenState(
    el("details", { open: memo.get("open") === "yes" },
      el("summary", {}, "fold"), el("p", {}, "inside")),
    (open) => memo.set("open", open ? "yes" : "no"));
  let fold = draw();
  document.body.append(fold);
  fold.querySelector("summary").click();
  const redrawn = draw();  // an event arrives before the toggle task runs
  fold.replaceWith(redrawn);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const afterToggle = redrawn.open;
  redrawn.querySelector("summary").click();
  await new Promise((resolve) => setTimeout(resolve, 50));
  fold = draw();
  redrawn.replaceWith(fold);
  return { afterToggle, closedAgain: !fold.open };
}"""


def test_a_redraw_under_a_click_keeps_the_fold_open(browser: Any, server: KirokuServer) -> None:
    reader = Audience.open(browser, "reader")
    try:
        reader.page.goto(f"{server.base_url}/")
        outcome = reader.page.evaluate(REDRAW_UNDER_A_CLICK)
        assert outcome == {"afterToggle": True, "closedAgain": True}
    finally:
        reader.close()
