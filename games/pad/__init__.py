"""A rubber's score pad: its layout by game (`builders`), what it shows a viewer (`context`),
its forms' helpers (`forms`), its notices (`notices`), its pages (`views`) and the live part the
phones poll (`live`). The deal writes behind its forms are games.deals'.
"""
