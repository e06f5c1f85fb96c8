print("splitctl")
