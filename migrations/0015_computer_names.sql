-- Players know the computer levels as easy and strong: the expert (still
-- "expert" to the computer players and to cribbage simulate) is shown as
-- strong, in the names of the seats it already holds too.
UPDATE seats SET name = REPLACE(name, '(expert)', '(strong)') WHERE computer = 'expert';
