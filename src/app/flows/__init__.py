"""What spans features, in one place: what a game change sets off (game_change), the scheduled sweep
(sweep), and erasing an account (erase_account). The features below know nothing of one another's
work here; each flow takes only the ports it uses (app.flows.bundles), never the whole services object.
"""
