"""The coverage pages (issue 21): making and editing unit sets (`unit_sets`); the judging page
and judgment tasks (`judging`)."""
