-- A bulk replay job's heartbeat: it belongs to the instance running it, and only a job whose heartbeat stopped is
-- marked interrupted (a restart of another instance leaves it alone). running_slot is 1 while a job runs and NULL
-- otherwise: its unique key lets one job run at a time per database, across instances (NULLs never conflict).
ALTER TABLE replay_job ADD COLUMN heartbeat_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE replay_job ADD COLUMN running_slot INTEGER;
ALTER TABLE replay_job ADD CONSTRAINT replay_job_one_running UNIQUE (running_slot);
