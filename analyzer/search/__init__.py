"""Seats that search: matches played with a stop at every decision of a searching seat."""
