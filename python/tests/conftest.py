# The example suite runs against the pytest plugin that `pip install understudy` registers (pytest11):
# nothing to configure here but the stub directory, which pytest.ini names (understudy_stubs).
