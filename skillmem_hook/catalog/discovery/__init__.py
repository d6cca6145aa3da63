"""Finding the SKILL.md files: on disk (walk; links, which links are followed; head_read, a file's
leading bytes) or in git's index (git, tracked; git_blobs, their bytes); layout, the roots that hold a repository's
skills; confinement, where a file a repository names may lie (the one rule of reads and writes). Paths out;
what a file says is skillfile's job."""
