"""The timeline benchmark's template comparison draws each figure with each template and puts the module's own
back."""

from __future__ import annotations

from benchmarks.bench_timeline import build_rows, template_seconds
from dashboard import timeline_figure


def test_each_figure_is_timed_with_each_template_and_the_timelines_own_is_set_again():
    ours = timeline_figure.timeline_template
    found = template_seconds(build_rows(3), repeat=2)
    assert set(found) == {"thread figure", "comparison"}
    for by_template in found.values():
        assert set(by_template) == {"timeline_template()", "'plotly_white'"}
        assert all(len(seconds) == 2 and min(seconds) > 0 for seconds, _size in by_template.values())
        # the named template sends every trace type's styles with each figure
        assert by_template["timeline_template()"][1] < by_template["'plotly_white'"][1]
    assert timeline_figure.timeline_template is ours
