r"""Benchmark: the pyramid builder on D0601 (4 models, 94 SCUs), on PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/pyramid_builder.py

Measures the server's time (in process, through Django's test client: no network) to render the
page, and to apply one editing action and answer with what it changed; and the
JavaScript the page ships beyond htmx. Targets: page < 150 ms, action < 50 ms, JS < 50 KB.
"""

from benchdata import data_file, describe
from benchdb import ROOT, bench_database
from timing import measure, runs

RUNS = runs(30)
PYRAMID = "duc2006-nist/allpyramids/D0601.pyr"


def main() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from annotator.models import Assignment, Pyramid
    from annotator.pyramids import editing
    from annotator.transfer.importing import DucviewImporter

    print(describe([data_file(PYRAMID)]))
    DucviewImporter("bench").import_file(data_file(PYRAMID))
    pyramid = Pyramid.objects.get(name="D0601")
    users = get_user_model().objects
    admin = users.create_superuser("admin", password="bench-password-1")
    editing.reopen(pyramid.pk, admin, pyramid.version)
    # Timed as the annotator assigned to build it: their access checks are part of every action.
    annotator = users.create_user("bench", password="bench-password-1")
    Assignment.objects.create(user=annotator, task=Assignment.Task.BUILD_PYRAMID, pyramid=pyramid)
    client = Client(SERVER_NAME="localhost")
    client.force_login(annotator)

    page_url = reverse("pyramid-detail", args=[pyramid.pk])
    assert client.get(page_url).status_code == 200
    print(f"page:   {measure(lambda: client.get(page_url), RUNS)} (target < 150 ms)")

    labels = ["Tribes run casinos", "Tribal sovereignty includes casinos"]
    counter = iter(range(10**6))

    def relabel():
        version = Pyramid.objects.values_list("version", flat=True).get(pk=pyramid.pk)
        response = client.post(
            reverse("pyramid-edit", args=[pyramid.pk, "set_label"]),
            {"version": version, "scu": 31, "label": labels[next(counter) % 2]},
        )
        assert response.status_code == 200, response.status_code

    print(f"action: {measure(relabel, RUNS)}: relabel an SCU (target < 50 ms)")

    model_a = pyramid.models_used.get(author="A")
    steps = iter(range(10**6))

    def new_scu_then_undo():
        # Alternately a new SCU (a model's shading changes) and its undo.
        version = Pyramid.objects.values_list("version", flat=True).get(pk=pyramid.pk)
        if next(steps) % 2 == 0:
            action, values = "new_scu", {"summary": model_a.pk, "ranges": "[[0, 40]]"}
        else:
            action, values = "undo", {}
        response = client.post(
            reverse("pyramid-edit", args=[pyramid.pk, action]), {"version": version, **values}
        )
        assert response.status_code == 200, response.status_code

    print(
        f"action: {measure(new_scu_then_undo, RUNS)}: new SCU / undo, reshading a model (target "
        "< 50 ms)"
    )

    # The scripts the builder page loads (static/js; htmx is vendored apart).
    scripts = [
        ROOT / "static" / "js" / name
        for name in ("text-selection.js", "workspace-actions.js", "pyramid-builder.js")
    ]
    size = sum(p.stat().st_size for p in scripts)
    print(
        f"JS beyond htmx: {size / 1024:.1f} KB in {len(scripts)} file(s), not minified (target < "
        "50 KB)"
    )


if __name__ == "__main__":
    with bench_database():
        main()
