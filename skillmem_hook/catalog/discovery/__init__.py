"""Finding the SKILL.md files: on disk (walk, links kept inside their root) or in git's index
(git, tracked). Paths out; what a file says is skillfile's job."""
