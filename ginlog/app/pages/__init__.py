"""Pages for a browser: the replay page's data and its HTML (with packaged assets), and the club site."""
