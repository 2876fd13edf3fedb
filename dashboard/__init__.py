"""Streamlit-side helpers: UI strings, cached resources, forms and figure builders."""
