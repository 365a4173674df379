"""Web pages into the store: `citewise ingest https://…` fetches a page, a sitemap's pages or
a same-site crawl (robots.txt respected, a page limit), keeps each fetched page as a file
(the original a citation opens) and ingests those files like any other folder.

guard.py (which addresses may be reached: no private, loopback or link-local ones unless
allowed, checked at connect time) · fetch.py (one page, size and time limits, redirects
checked hop by hop; robots.txt) · crawl.py (sitemap or links, saving pages to a folder).
"""
