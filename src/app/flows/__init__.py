"""What spans features, in one place: what a game change sets off (game_change), the scheduled sweep
(sweep), erasing an account (erase_account), and revoking a credential with the live sockets it
opened (revoke_credentials). The features below know nothing of one another's
work here; each flow takes only the ports it uses (app.flows.bundles), never the whole services object.
"""
