"""Mail: the email channel of notifications (turn mail, the digest, unsubscribe links, bounces) and the
Mailer port that sign-in codes also go through."""
