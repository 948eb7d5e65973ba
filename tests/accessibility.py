"""axe-core in the page under test: the accessibility violations a page has, by impact.

axe-core is vendored from the npm registry in tests/vendor/axe-core (for the tests only)."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}


def violations(page, impacts=BLOCKING) -> list[str]:
    """Each violation of `impacts` on the page as it is now: rule, impact, and where."""
    if not page.evaluate("() => !!window.axe"):
        # Evaluated by the browser's DevTools, not as a <script> in the page: the pages'
        # Content-Security-Policy refuses inline scripts (add_script_tag's), as it should.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""async () => {
      const result = await axe.run(document, { resultTypes: ["violations"] });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
        where: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " — "
          + (n.failureSummary || "").split("\\n").slice(1, 3).join(" ")) }));
    }""")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {v['where']}"
        for v in found
        if v["impact"] in impacts
    ]
