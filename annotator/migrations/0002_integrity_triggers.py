"""Integrity rules that span tables, as PostgreSQL constraint triggers.

- a span ends within its summary's text (0 <= start < end is a check constraint already);
- a PSE span ends within the annotated peer summary's text;
- a PSE's SCU belongs to the pyramid of the PSE's peer annotation;
- a peer annotation annotates a peer summary of the pyramid's docset;
- a summary's text cannot shrink below a span that lies in it.

SQLite (the zero-setup default for trying the app) has no such triggers: there the editing code
is the only guard, as everywhere else it is the first one.
"""

from django.db import migrations

CREATE = r"""
CREATE FUNCTION annotator_check_span_end() RETURNS trigger AS $$
DECLARE text_length integer;
BEGIN
    SELECT char_length(text) INTO text_length FROM annotator_summary WHERE id = NEW.summary_id;
    IF NEW."end" > text_length THEN
        RAISE EXCEPTION 'span % ends at %, beyond its summary''s text (% characters)',
            NEW.id, NEW."end", text_length USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER span_within_summary AFTER INSERT OR UPDATE ON annotator_span
    DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION annotator_check_span_end();

CREATE FUNCTION annotator_check_psespan_end() RETURNS trigger AS $$
DECLARE text_length integer;
BEGIN
    SELECT char_length(s.text) INTO text_length
      FROM annotator_pse p
      JOIN annotator_peerannotation a ON a.id = p.annotation_id
      JOIN annotator_summary s ON s.id = a.peer_id
     WHERE p.id = NEW.pse_id;
    IF NEW."end" > text_length THEN
        RAISE EXCEPTION 'PSE span % ends at %, beyond the peer summary''s text (% characters)',
            NEW.id, NEW."end", text_length USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER psespan_within_peer AFTER INSERT OR UPDATE ON annotator_psespan
    DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION annotator_check_psespan_end();

CREATE FUNCTION annotator_check_pse_scu() RETURNS trigger AS $$
BEGIN
    IF NEW.scu_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM annotator_scu s JOIN annotator_peerannotation a ON a.pyramid_id = s.pyramid_id
         WHERE s.id = NEW.scu_id AND a.id = NEW.annotation_id
    ) THEN
        RAISE EXCEPTION 'PSE % names SCU %, which is not in the pyramid of its peer annotation',
            NEW.id, NEW.scu_id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER pse_scu_in_pyramid AFTER INSERT OR UPDATE ON annotator_pse
    DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION annotator_check_pse_scu();

CREATE FUNCTION annotator_check_peer_annotation() RETURNS trigger AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM annotator_summary s JOIN annotator_pyramid p ON p.docset_id = s.docset_id
         WHERE s.id = NEW.peer_id AND p.id = NEW.pyramid_id AND s.kind = 'peer'
    ) THEN
        RAISE EXCEPTION 'peer annotation % must annotate a peer summary of its pyramid''s docset', NEW.id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER peer_annotation_of_docset_peer AFTER INSERT OR UPDATE ON annotator_peerannotation
    DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION annotator_check_peer_annotation();

CREATE FUNCTION annotator_check_summary_text() RETURNS trigger AS $$
BEGIN
    IF char_length(NEW.text) < char_length(OLD.text) AND (
        EXISTS (SELECT 1 FROM annotator_span WHERE summary_id = NEW.id AND "end" > char_length(NEW.text))
        OR EXISTS (SELECT 1 FROM annotator_psespan ps JOIN annotator_pse p ON p.id = ps.pse_id
                     JOIN annotator_peerannotation a ON a.id = p.annotation_id
                    WHERE a.peer_id = NEW.id AND ps."end" > char_length(NEW.text))
    ) THEN
        RAISE EXCEPTION 'summary % is shorter than a span that lies in it', NEW.id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER summary_text_covers_spans AFTER UPDATE OF text ON annotator_summary
    DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION annotator_check_summary_text();
"""

DROP = r"""
DROP TRIGGER IF EXISTS summary_text_covers_spans ON annotator_summary;
DROP TRIGGER IF EXISTS peer_annotation_of_docset_peer ON annotator_peerannotation;
DROP TRIGGER IF EXISTS pse_scu_in_pyramid ON annotator_pse;
DROP TRIGGER IF EXISTS psespan_within_peer ON annotator_psespan;
DROP TRIGGER IF EXISTS span_within_summary ON annotator_span;
DROP FUNCTION IF EXISTS annotator_check_summary_text();
DROP FUNCTION IF EXISTS annotator_check_peer_annotation();
DROP FUNCTION IF EXISTS annotator_check_pse_scu();
DROP FUNCTION IF EXISTS annotator_check_psespan_end();
DROP FUNCTION IF EXISTS annotator_check_span_end();
"""


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)  # no placeholders: % is RAISE's

    return run


class Migration(migrations.Migration):
    dependencies = [("annotator", "0001_initial")]
    operations = [migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP))]
