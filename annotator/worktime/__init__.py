"""Active time on task (issue 20): each action of a user on a pyramid or a peer annotation (an edit,
or a selection reported by the page) adds the time since their previous action on it, unless that
pause was longer than WorkTime.ACTIVE_GAP (time away from the page does not count).

- recording: the running total of one user on one piece of work, kept race-free;
- held: the page's held activity, recorded (on its own, or sent with the next edit, issue 32);
- views: the endpoint the pages call (static/js/worktime.js) when the user selects words or moves
  through the page;
- queries: the totals as SQL expressions, for the progress page, the dashboard, the API and the
  reports (a constant number of queries, whatever the number of rows).

Also:

- `held.py` — what the page held back of its activity (static/js/worktime.js), recorded
- `queries.py` — active time as the pages read it: SQL expressions over the WorkTime rows
- `recording.py` — recording an action: the time since the user's last one, unless a pause
- `views.py` — the endpoint the builder and the peer page call (static/js/worktime.js) when the
  user selects words or moves through the page
- `models.py` — active time on task (issue 20)
"""
