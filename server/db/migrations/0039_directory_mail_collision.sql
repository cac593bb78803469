-- Decision 094: the admins' bell tells of a directory entry refused because its mail is another directory account's.
ALTER TYPE "public"."notification_kind" ADD VALUE 'directory_mail_collision';