"""Finding the SKILL.md files: on disk (walk; links, which links are followed; head_read, a file's
leading bytes) or in git's index (git, tracked; git_blobs, their bytes); layout, the roots that hold a repository's
skills. Paths out; what a file says is skillfile's job."""
