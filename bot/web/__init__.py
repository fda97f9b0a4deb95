"""The live board on the web, served by the bot process itself (aiohttp, which discord.py
brings): one page per game at ``PUBLIC_URL/g/<game>``, live updates by server-sent events,
a replay stepped from the game's log, and play through signed links (README "The board on
the web").  Nothing here imports discord: a move from the page goes through the same
``GameService`` path as one from Discord, and the outbox posts its turn in the channel."""
