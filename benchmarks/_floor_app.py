"""The least a chart or a table costs in the browser: a title and a line of text, and with
``?chart=1`` one Plotly chart, with ``?table=1`` one ``st.dataframe``.

``benchmarks/bench_pages.py`` loads this page bare, with the table and with the chart, interleaved,
in the same browser as the dashboard's pages. The chart is three points, drawn with the same call and
options as the explorer's; the table is three rows, drawn with the same call as the dashboard's paged
tables. So what each ratio shows is what a page pays to draw any chart or any table at all: the
browser loads and starts Plotly's code or the data grid's (Streamlit loads each only when a page
first shows one, and again in every new tab) and draws it. A page that draws its chart or its tables
only when it has data to draw (every page but home, on an empty database) pays this on the loaded
database and not on the empty one, whatever the data's size.
"""

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

st.title("Floor")
st.caption("One line of text; with ?chart=1 one Plotly chart of three points, with ?table=1 a table of three rows.")
if st.query_params.get("chart") == "1":
    figure = go.Figure(go.Scatter(x=[1, 2, 3], y=[1, 3, 2], mode="markers"))
    st.plotly_chart(
        figure,
        key="floor-chart",
        on_select="rerun",
        selection_mode="points",
        config={"scrollZoom": True, "displaylogo": False},
    )
if st.query_params.get("table") == "1":
    st.dataframe(pd.DataFrame({"thread": ["a", "b", "c"], "steps": [1, 2, 3]}), hide_index=True, width="stretch")
