# Registry (issue #11) GUI files
