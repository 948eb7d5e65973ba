from django.core.management.base import BaseCommand

from annotator.demo import load_demo


class Command(BaseCommand):
    help = "Load the demo docset (Apollo 11: 4 models, 3 peers, a pyramid, peer annotations). Idempotent."

    def handle(self, *args, **options):
        collection = load_demo()
        if collection is None:
            self.stdout.write("The demo data is already loaded; nothing changed.")
        else:
            docset = collection.docsets.get()
            self.stdout.write(
                f"Loaded {collection.name}: docset {docset.name} with {docset.summaries.filter(kind='model').count()} "
                f"models, {docset.summaries.filter(kind='peer').count()} peers and a pyramid of "
                f"{docset.pyramids.get().scus.count()} SCUs."
            )
