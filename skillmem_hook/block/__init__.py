"""The prompt file: render the index block, find its markers, compare and write it."""
