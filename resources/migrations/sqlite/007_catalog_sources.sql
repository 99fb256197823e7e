-- Where each catalog version came from, so every view can show it and versions can be ordered by
-- their source (semantic version of the label, else commit date, else the date in the label),
-- never by import order.
-- source_kind: folder | git | embedded. source_repo: the repository path or URL (git), or the clone
-- a folder is in. source_ref: the ref asked for (refs/tags/v0.20.0, main, a commit id).
-- source_tag: the tag name when the ref is a tag. source_commit: full commit id.
-- source_commit_date: ISO 8601 UTC committer date. source_path: the catalog folder in the repository.
ALTER TABLE catalog_versions ADD COLUMN source_kind TEXT NOT NULL DEFAULT 'folder';
ALTER TABLE catalog_versions ADD COLUMN source_repo TEXT;
ALTER TABLE catalog_versions ADD COLUMN source_ref TEXT;
ALTER TABLE catalog_versions ADD COLUMN source_tag TEXT;
ALTER TABLE catalog_versions ADD COLUMN source_commit TEXT;
ALTER TABLE catalog_versions ADD COLUMN source_commit_date TEXT;
ALTER TABLE catalog_versions ADD COLUMN source_path TEXT;

UPDATE catalog_versions SET source_kind = 'embedded' WHERE embedded = 1;

-- Databases made before the sample catalog was relabelled: its versions carried real AICR release
-- labels. Rename them so no sample is ever shown under a release's name.
UPDATE catalog_versions SET label = 'sample-1' WHERE embedded = 1 AND label = 'v0.20.0'
    AND NOT EXISTS (SELECT 1 FROM catalog_versions WHERE label = 'sample-1');
UPDATE catalog_versions SET label = 'sample-2' WHERE embedded = 1 AND label = 'v1.0.0'
    AND NOT EXISTS (SELECT 1 FROM catalog_versions WHERE label = 'sample-2');
