"""The live pages' runtime: the Pyodide bundle (bundle.py), the pure rpds stand-in, the Chromium driver."""
