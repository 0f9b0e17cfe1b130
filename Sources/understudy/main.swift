print("understudy: not built yet")
