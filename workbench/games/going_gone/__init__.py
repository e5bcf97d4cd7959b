"""Going, Going, GONE!"""
