SELECT id, email FROM users WHERE id = 3;
