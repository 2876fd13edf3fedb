"""The least a chart costs in the browser: a title and a line of text, and with ``?chart=1`` one Plotly chart.

``benchmarks/bench_pages.py`` loads this page with and without the chart, interleaved, in the same
browser as the dashboard's pages. The chart is three points, drawn with the same call and options as
the explorer's, so what the ratio shows is what a page pays to draw any Plotly chart at all: the
browser loads and starts Plotly's code (Streamlit loads it only when a page first shows a chart,
and again in every new tab) and draws the chart's SVG. A page that draws its chart only when it has
data to draw (the explorer and the timeline on an empty database) pays this on the loaded database
and not on the empty one, whatever the data's size.
"""

import plotly.graph_objects as go
import streamlit as st

st.title("Chart floor")
st.caption("One line of text, and with ?chart=1 one Plotly chart of three points.")
if st.query_params.get("chart") == "1":
    figure = go.Figure(go.Scatter(x=[1, 2, 3], y=[1, 3, 2], mode="markers"))
    st.plotly_chart(
        figure,
        key="floor-chart",
        on_select="rerun",
        selection_mode="points",
        config={"scrollZoom": True, "displaylogo": False},
    )
