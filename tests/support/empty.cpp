// Keeps test_support non-empty.
