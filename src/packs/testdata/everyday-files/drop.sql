drop table users;
